// kennel serve --proxy when the upstream fails: down (502), a loop (508), silent (504), a body
// broken off on either side, a kept-alive connection the upstream closed.
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startMock, type RunningMock } from '../../src/serve/server.js';
import { freePort } from '../helpers/cli.js';
import { TEST_KEY } from '../helpers/mock-client.js';
import { capturedLogger, json, rawRequest, testUpstream, violationsOf } from './proxy-helpers.js';
import { answerHeadArrives, holdsThroughout, waitUntil } from '../helpers/wait.js';

const AUTH = { authorization: `Bearer ${TEST_KEY}` };

describe('proxy mode with the upstream down', () => {
  it('answers 502 naming the upstream, reports it, and keeps serving', async () => {
    const port = await freePort();
    const proxy = await startMock({ port: 0, world: false, proxy: `http://127.0.0.1:${port}/base/` });
    try {
      for (let attempt = 0; attempt < 2; attempt += 1) {
        const answer = await rawRequest(`${proxy.url}/pets`, { headers: AUTH });
        expect(answer.status).toBe(502);
        expect(JSON.parse(answer.body.toString())).toEqual({
          code: 'bad_gateway',
          message: `The upstream http://127.0.0.1:${port}/base could not be reached: connection refused`,
          status: 502,
        });
        expect(violationsOf(answer)).toEqual([
          expect.objectContaining({ location: 'upstream', rule: 'upstream-reachable' }),
        ]);
      }
      expect((await fetch(`${proxy.origin}/__kennel/health`)).status).toBe(200);
    } finally {
      await proxy.close();
    }
  });
});

describe('proxy mode whose upstream leads back to itself (a loop)', () => {
  it('answers 508 naming the loop after a few hops, instead of relaying until the headers overflow', async () => {
    let proxyOrigin = '';
    // A relay that sends every request back to the proxy, headers (Via) and all.
    const relay = await testUpstream((seen, response) => {
      const { host: _host, connection: _connection, ...headers } = seen.headers as Record<string, string>;
      void rawRequest(`${proxyOrigin}${seen.url}`, { method: seen.method, headers, body: seen.body }).then(
        (answer) => json(response, answer.status, answer.body),
        () => response.destroy(),
      );
    });
    const proxy = await startMock({ port: 0, world: false, proxy: relay.url });
    proxyOrigin = proxy.origin;
    try {
      const answer = await rawRequest(`${proxy.url}/pets`, { headers: AUTH });
      expect(answer.status).toBe(508);
      expect(JSON.parse(answer.body.toString())).toMatchObject({
        code: 'proxy_loop',
        message: expect.stringContaining(`--proxy ${relay.url}`),
      });
      expect(relay.received.length).toBeLessThanOrEqual(8);
    } finally {
      await proxy.close();
      await relay.close();
    }
  });
});

describe('proxy mode with a silent upstream', () => {
  it('answers 504 after --proxy-timeout, naming the upstream', async () => {
    let received = 0;
    const upstream = await testUpstream(() => {
      received += 1; // Never answers.
    });
    const proxy = await startMock({ port: 0, world: false, proxy: upstream.url, proxyTimeoutMs: 300 });
    try {
      const started = performance.now();
      const answer = await rawRequest(`${proxy.url}/pets`, { headers: AUTH });
      expect(performance.now() - started).toBeLessThan(5_000);
      expect(JSON.parse(answer.body.toString())).toEqual({
        code: 'gateway_timeout',
        message: `The upstream ${upstream.url} did not answer within 300 ms (--proxy-timeout)`,
        status: 504,
      });
      expect(answer.status).toBe(504);
      // A client that gives up first broke nothing: only the 504 counts.
      const impatient = request(`${proxy.url}/pets`, { headers: AUTH });
      impatient.on('error', () => {});
      impatient.end();
      await waitUntil(
        () => received === 2,
        () => 'the impatient request to reach the upstream',
      );
      impatient.destroy();
      // Through the whole --proxy-timeout and beyond, the request given up on is not counted.
      await holdsThroughout(
        () => proxy.proxy!.tally.toJSON().rules['upstream-reachable']?.count === 1,
        400,
        () => `only the 504 counts: ${JSON.stringify(proxy.proxy!.tally.toJSON().rules)}`,
      );
      expect(proxy.proxy!.tally.toJSON().rules).toEqual({ 'upstream-reachable': { count: 1, severity: 'error' } });
    } finally {
      await proxy.close();
      await upstream.close();
    }
  });
});

describe('proxy mode when a side breaks off a streamed body', () => {
  const MB = 1024 * 1024;
  let upstreamGone: Promise<void>;
  let upstream: Awaited<ReturnType<typeof testUpstream>>;
  let proxy: RunningMock;
  const log = capturedLogger();
  const printed = vi.spyOn(console, 'error');

  beforeAll(async () => {
    let markGone!: () => void;
    upstreamGone = new Promise((resolve) => (markGone = resolve));
    upstream = await testUpstream((request, response) => {
      const socket = response.socket!;
      // Pet 1: the upstream breaks off once the proxy has read the head, with 2 of 3 MB under way.
      if (request.url === '/v1/pets/1') void answerHeadArrives(socket.localPort!).then(() => socket.destroy());
      else response.on('close', () => (response.writableFinished ? undefined : markGone()));
      response.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': String(3 * MB) });
      response.write(Buffer.alloc(2 * MB, 32));
    });
    proxy = await startMock({ port: 0, world: false, proxy: upstream.url, logger: log.logger });
  });
  afterAll(async () => {
    printed.mockRestore();
    await proxy.close();
    await upstream.close();
  });

  it('the upstream breaking off cuts the client off too, with a warning and no stack trace', async () => {
    await expect(rawRequest(`${proxy.url}/pets/1`, { headers: AUTH })).rejects.toThrow(/aborted/);
    expect((await fetch(`${proxy.origin}/__kennel/health`)).status).toBe(200);
    expect(log.text()).toContain('the upstream broke off its answer');
    expect(printed).not.toHaveBeenCalled();
  });

  it('the client going away stops the download from the upstream', async () => {
    await new Promise<void>((resolve, reject) => {
      const outgoing = request(`${proxy.url}/pets/2`, { headers: AUTH }, (response) => {
        response.once('data', () => {
          outgoing.destroy();
          resolve();
        });
      });
      outgoing.on('error', () => {});
      outgoing.end();
      setTimeout(() => reject(new Error('no data')), 5_000);
    });
    await upstreamGone;
    expect(printed).not.toHaveBeenCalled();
  });

  it('the client going away mid-upload leaves kennel serving', async () => {
    const outgoing = request(`${proxy.url}/pets`, {
      method: 'POST',
      headers: { ...AUTH, 'content-type': 'application/json', 'content-length': String(10 * MB) },
    });
    outgoing.on('error', () => {});
    await new Promise((resolve) => outgoing.write(Buffer.alloc(512 * 1024, 32), resolve));
    const closed = new Promise((resolve) => outgoing.once('close', resolve));
    outgoing.destroy();
    await closed;
    expect((await fetch(`${proxy.origin}/__kennel/health`)).status).toBe(200);
    expect(printed).not.toHaveBeenCalled();
  });
});

describe('proxy mode on kept-alive upstream connections', () => {
  it('retries once, on a new connection, a request whose reused connection the upstream had closed', async () => {
    const served = new WeakMap<object, number>();
    const upstream = await testUpstream((_request, response) => {
      const socket = response.socket!;
      const count = (served.get(socket) ?? 0) + 1;
      served.set(socket, count);
      // The second request on a connection finds it closed, as when an idle timeout races a reuse.
      if (count > 1) socket.destroy();
      else json(response, 200, [{ id: 1, name: 'Rex', categoryId: 1 }]);
    });
    const proxy = await startMock({ port: 0, world: false, proxy: upstream.url });
    try {
      for (let attempt = 0; attempt < 3; attempt += 1) {
        const answer = await rawRequest(`${proxy.url}/pets`, { headers: AUTH });
        expect([answer.status, answer.headers['kennel-violations']]).toEqual([200, undefined]);
      }
      expect(upstream.received).toHaveLength(5);
    } finally {
      await proxy.close();
      await upstream.close();
    }
  });
});
