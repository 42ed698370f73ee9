// kennel check against kennel serve keeps its connections. kennel serve ended the connection of
// every POST it refused before reading the body (a 401), and one `Connection: close` makes Node's
// fetch (undici 7.10 to 7.29, nodejs/undici#5022) open a new connection for every later request of
// the run: 237 connections for 498 requests on the Pet Store. Now one per request in flight and the
// probe's. Counted through a TCP forwarder on loopback.
import type { Server } from 'node:http';
import {
  connect,
  createServer as createTcpServer,
  type AddressInfo,
  type Server as TcpServer,
  type Socket,
} from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { runContract } from '../../src/contract/run/runner.js';
import { startMock } from '../../src/serve/server.js';

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

function listen(server: Server | TcpServer): Promise<number> {
  closers.push(
    () =>
      new Promise((resolve) => {
        if ('closeAllConnections' in server) server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)));
}

/** A TCP forwarder to `port` that counts the connections made through it. */
async function countingForwarder(port: number): Promise<{ port: number; connections: () => number }> {
  let connections = 0;
  const sockets = new Set<Socket>();
  const forwarder = createTcpServer((client) => {
    connections += 1;
    const upstream = connect(port, '127.0.0.1');
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
    }
    client.pipe(upstream).pipe(client);
    client.on('error', () => upstream.destroy());
    upstream.on('error', () => client.destroy());
  });
  const listening = await listen(forwarder);
  closers.push(async () => sockets.forEach((socket) => socket.destroy()));
  return { port: listening, connections: () => connections };
}

describe('kennel check reuses its connections', () => {
  it('a run against kennel serve opens no more connections than requests in flight, and the probe', async () => {
    const mock = await startMock({ port: 0, apiKeys: ['reuse-key'], world: false });
    closers.push(() => mock.close());
    const forwarder = await countingForwarder(Number(new URL(mock.origin).port));
    const summary = await runContract({
      baseUrl: `http://127.0.0.1:${forwarder.port}/v1`,
      apiKey: 'reuse-key',
      seed: 1,
      concurrency: 2,
      checks: ['auth-enforced', 'positive-data-acceptance', 'negative-data-rejection'],
    });
    expect(summary.requests).toBeGreaterThan(50);
    expect(forwarder.connections()).toBeLessThanOrEqual(3);
  });
});
