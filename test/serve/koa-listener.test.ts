import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import Koa from 'koa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { koaListener } from '../../src/serve/koa-listener.js';

// The listener answers text bodies itself and hands every other answer to Koa's own respond:
// each row is an answer kind, sent over loopback to a real HTTP server.
const app = new Koa();
app.on('error', () => {});
app.use(async (ctx) => {
  const kind = ctx.path.slice(1);
  if (kind === 'text') {
    ctx.status = 201;
    ctx.set('Content-Type', 'application/json');
    ctx.body = '{"id":1}';
  } else if (kind === 'buffer') {
    ctx.status = 202;
    ctx.body = Buffer.from('bytes');
  } else if (kind === 'stream') {
    ctx.status = 203;
    ctx.type = 'text/plain';
    ctx.body = Readable.from(['one ', 'two']);
  } else if (kind === 'object') {
    ctx.status = 200;
    ctx.body = { ok: true };
  } else if (kind === 'empty') {
    ctx.body = 'dropped';
    ctx.status = 204;
  } else if (kind === 'bypass') {
    ctx.respond = false;
    ctx.res.statusCode = 299;
    ctx.res.end('written by the middleware');
  } else if (kind === 'throws') {
    throw new Error('boom');
  }
});

let server: Server;
let origin: string;

beforeAll(async () => {
  const listener = koaListener(app);
  server = createServer((request, response) => void listener(request, response));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

async function fetched(path: string, method = 'GET') {
  const response = await fetch(origin + path, { method });
  return { status: response.status, headers: response.headers, text: await response.text() };
}

describe('koaListener', () => {
  it('ends a text answer with its status, headers and length', async () => {
    const answer = await fetched('/text');
    expect(answer).toMatchObject({ status: 201, text: '{"id":1}' });
    expect(answer.headers.get('content-type')).toBe('application/json');
    expect(answer.headers.get('content-length')).toBe('8');
  });

  it("hands Buffers, streams and objects to Koa's respond, keeping their status", async () => {
    expect(await fetched('/buffer')).toMatchObject({ status: 202, text: 'bytes' });
    expect(await fetched('/stream')).toMatchObject({ status: 203, text: 'one two' });
    const object = await fetched('/object');
    expect(object).toMatchObject({ status: 200, text: '{"ok":true}' });
    expect(object.headers.get('content-type')).toMatch(/^application\/json/);
  });

  it('sends no body for HEAD or a bodiless status, and the length a GET would have', async () => {
    const head = await fetched('/text', 'HEAD');
    expect(head).toMatchObject({ status: 201, text: '' });
    expect(head.headers.get('content-length')).toBe('8');
    expect(await fetched('/empty')).toMatchObject({ status: 204, text: '' });
  });

  it('leaves a bypassed answer to the middleware that wrote it', async () => {
    expect(await fetched('/bypass')).toMatchObject({ status: 299, text: 'written by the middleware' });
  });

  it("answers an error as Koa does, and nothing matched as Koa's 404", async () => {
    expect((await fetched('/throws')).status).toBe(500);
    expect(await fetched('/nothing')).toMatchObject({ status: 404, text: 'Not Found' });
  });
});
