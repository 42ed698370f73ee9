// kennel check keeps its connections: once a server ended one (`Connection: close`), Node's global
// fetch opened a new connection for every later request (nodejs/undici#5022), and kennel serve
// ended one after every POST it refused before reading the body (a 401). 237 connections for 498
// requests on the Pet Store; now one per request in flight. Counted at real servers on loopback.
import { createServer, type Server } from 'node:http';
import {
  connect,
  createServer as createTcpServer,
  type AddressInfo,
  type Server as TcpServer,
  type Socket,
} from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { HttpClient } from '../../src/contract/http-client.js';
import type { PlannedOperation } from '../../src/contract/plan.js';
import { runContract } from '../../src/contract/runner.js';
import { startMock } from '../../src/mock/server.js';

const create = {
  id: 'createThing',
  parameters: [],
  operation: { method: 'post', path: '/things', responses: [], security: { requirements: [], schemes: {} } },
} as unknown as PlannedOperation;

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

function client(baseUrl: string, concurrency: number): HttpClient {
  return new HttpClient({
    baseUrl,
    apiKey: '',
    headers: {},
    timeoutMs: 5000,
    concurrency,
    rateLimit: 0,
    maxRetries: 0,
    maxRetryAfterMs: 0,
  });
}

describe('kennel check reuses its connections', () => {
  it('after the server ended one (Connection: close), later requests share one connection again', async () => {
    let answered = 0;
    let connections = 0;
    const server = createServer((request, response) => {
      request.resume();
      request.on('end', () => {
        answered += 1;
        if (answered === 1) response.setHeader('connection', 'close');
        response.end('{"ok":true}');
      });
    });
    server.on('connection', () => (connections += 1));
    const port = await listen(server);
    const http = client(`http://127.0.0.1:${port}`, 1);
    for (let index = 0; index < 30; index++) {
      const exchange = await http.send({ operation: create, intent: 'valid', purpose: 'reuse', body: { value: {} } });
      expect(exchange.response?.status).toBe(200);
    }
    // The first connection, the one after it, and at most one more a close could race.
    expect(connections).toBeLessThanOrEqual(3);
  });

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
