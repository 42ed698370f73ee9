import Koa from 'koa';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, request } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Redactor } from '../../src/core/redact.js';
import { createProxy, type KennelProxy } from '../../src/proxy/proxy-handler.js';
import { loadDocument, type LoadedDocument } from '../../src/openapi/load.js';
import { listenOnLoopback, type LoopbackServer } from '../helpers/loopback.js';
import { thingsDocument } from '../helpers/things-document.js';
import { capturedLogger, json, rawRequest, testUpstream, violationsOf } from './proxy-helpers.js';

const NAMED = `      required: [name]\n      properties: { name: { type: string } }`;
const SIZED = `      required: [size]\n      properties: { size: { type: integer } }`;

describe('a reload while an exchange is under way', () => {
  let folder: string;
  let named: LoadedDocument;
  let sized: LoadedDocument;
  let upstream: LoopbackServer;
  let proxy: KennelProxy;
  let front: LoopbackServer;
  let arrived: () => void = () => {};

  beforeAll(async () => {
    folder = await mkdtemp(path.join(tmpdir(), 'kennel-proxy-reload-'));
    const load = async (name: string, thing: string) => {
      await writeFile(path.join(folder, name), thingsDocument(thing));
      return loadDocument(path.join(folder, name));
    };
    [named, sized] = await Promise.all([load('named.yaml', NAMED), load('sized.yaml', SIZED)]);
    upstream = await testUpstream((_request, response) => json(response, 201, { name: 'Rex' }));
    const redactor = new Redactor({ secrets: [] });
    proxy = createProxy({
      document: named,
      upstream: new URL(upstream.url),
      maxRequestBytes: 1024,
      maxResponseBytes: 1024,
      timeoutMs: 5000,
      logger: capturedLogger().logger,
      redactor,
    });
    const app = new Koa();
    // The proxy takes its document before its first await: once this runs, the exchange has one.
    app.use((_ctx, next) => {
      arrived();
      return next();
    });
    app.use(proxy.middleware);
    front = await listenOnLoopback(createServer((request, response) => void app.callback()(request, response)));
  });
  afterAll(async () => {
    proxy.close();
    await front.close();
    await upstream.close();
    await rm(folder, { recursive: true, force: true });
  });

  it('judges the exchange by the document it started with; the next one by the new document', async () => {
    proxy.useDocument(named, new Redactor({ secrets: [] }));
    const started = new Promise<void>((resolve) => (arrived = resolve));
    const answer = new Promise<{ status: number; violations: string | undefined }>((resolve, reject) => {
      const outgoing = request(
        `${front.url}/things`,
        { method: 'POST', headers: { 'content-type': 'application/json', 'transfer-encoding': 'chunked' } },
        (response) => {
          response.resume();
          response.on('end', () =>
            resolve({ status: response.statusCode!, violations: response.headers['kennel-violations'] as string }),
          );
        },
      );
      outgoing.on('error', reject);
      outgoing.write('{"name":');
      void started.then(() => {
        proxy.useDocument(sized, new Redactor({ secrets: [] }));
        outgoing.end('"Rex"}');
      });
    });
    // Under the new document both the body and the answer would lack `size`.
    expect(await answer).toEqual({ status: 201, violations: undefined });

    const next = await rawRequest(`${front.url}/things`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"name":"Rex"}',
    });
    expect(next.status).toBe(201);
    expect(violationsOf(next)?.map((violation) => violation.location)).toEqual(['request', 'response']);
  });
});
