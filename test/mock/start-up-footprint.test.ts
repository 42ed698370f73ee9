// What a plain `kennel serve` does not load. Node's bundled undici (a 750 KB script, +13 MB RSS)
// came in twice without a single fetch: through the ES module facade of node:http (kennel's
// server, @koa/router's ES build) and through swagger-parser's options check, which reads the
// global `Headers`, for documents with nothing to bundle. Checked in a fresh Node on the built dist/.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

const SCRIPT = `
import module from 'node:module';
const { startMock } = await import('./dist/mock/server.js');
const mock = await startMock({ port: 0, apiKeys: ['k'], world: false });
const { request } = module.createRequire(import.meta.url)('node:http');
const status = await new Promise((resolve, reject) =>
  request(mock.url + '/pets?limit=1', { headers: { authorization: 'Bearer k' } }, (response) => {
    response.resume();
    response.on('end', () => resolve(response.statusCode));
  }).on('error', reject).end(),
);
await mock.close();
console.log(JSON.stringify({ status, undici: process.moduleLoadList.some((name) => name.includes('undici')) }));
`;

describe('kennel serve start-up', () => {
  it('answers without loading Node’s bundled fetch (undici)', async () => {
    const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', SCRIPT], {
      cwd: ROOT,
      timeout: 30_000,
    });
    expect(JSON.parse(stdout.trim().split('\n').at(-1)!)).toEqual({ status: 200, undici: false });
  });
});
