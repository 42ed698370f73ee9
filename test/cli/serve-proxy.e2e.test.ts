import { spawn } from 'node:child_process';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { json, rawRequest, testUpstream } from '../mock/proxy-helpers.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const KEY = 'sk_live_e2e_9f8e7d6c5b4a';

/** Spawns `bin/kennel.js serve --port 0 --proxy <upstream>` (the built dist/) and waits for its banner. */
async function spawnProxy(upstream: string) {
  const child = spawn(process.execPath, ['bin/kennel.js', 'serve', '--port', '0', '--no-world', '--proxy', upstream], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const url = await new Promise<string>((resolve, reject) => {
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
      const found = /API {6}(http:\/\/\S+)/.exec(stderr);
      if (found) resolve(found[1]!);
    });
    child.on('exit', () => reject(new Error(`kennel exited before listening:\n${stderr}`)));
  });
  return { child, url, exited, stdout: () => stdout, stderr: () => stderr };
}

describe('kennel serve --proxy (spawned)', () => {
  let upstream: Awaited<ReturnType<typeof testUpstream>>;

  beforeAll(async () => {
    upstream = await testUpstream((request, response) => {
      if (request.url === '/v1/pets/7') json(response, 200, { id: 7, name: 5, categoryId: 1 });
      else if (request.url === '/v1/pets') json(response, 200, [{ id: 1, name: 'Rex', categoryId: 1 }]);
      else json(response, 418, { code: 'teapot', message: `no ${request.headers.authorization}`, status: 418 });
    });
  });
  afterAll(() => upstream.close());

  it.each(['SIGINT', 'SIGTERM'] as const)(
    'prints the counts per operation and per rule when stopped by %s, and never the key',
    async (signal) => {
      const kennel = await spawnProxy(upstream.url);
      const headers = { authorization: `Bearer ${KEY}` };
      expect((await rawRequest(`${kennel.url}/pets`, { headers })).headers['kennel-violations']).toBeUndefined();
      await rawRequest(`${kennel.url}/pets/7`, { headers });
      await rawRequest(`${kennel.url}/pets/8`, { headers });
      await rawRequest(`${kennel.url}/unknown`, { headers });
      kennel.child.kill(signal);
      expect(await kennel.exited).toBe(0);
      const summary = kennel.stderr().slice(kennel.stderr().indexOf('kennel: proxy summary'));
      expect(summary.split('\n')[0]).toBe(
        `kennel: proxy summary for ${upstream.url}: 4 exchanges, 3 broke the document`,
      );
      expect(summary).toMatch(
        /getPet +2\/2: response-schema-conformance ×1, deprecation-signalled ×1, status-code-conformance ×1/,
      );
      expect(summary).toMatch(/\(not in the document\) +1\/1: request-operation-documented ×1/);
      expect(summary).toMatch(/deprecation-signalled +1 \(warning\)/);
      expect(summary).not.toMatch(/listPets/);
      expect(kennel.stderr()).toContain(`kennel: proxying to ${upstream.url}`);
      expect(kennel.stdout()).toContain('exchange breaks the document');
      expect(kennel.stdout() + kennel.stderr()).not.toContain(KEY);
    },
  );

  it.each([
    ['ftp://example.com', '--proxy ftp URL: kennel forwards to http or https deployments only'],
    ['not a url', '--proxy "not a url" is not a URL'],
    ['https://user:secret@example.com', '--proxy URL carries credentials'],
  ])('--proxy %s is refused with exit 2', async (url, message) => {
    const cli = runCli(['serve', '--port', '0', '--no-world', '--proxy', url]);
    expect(await cli.code).toBe(2);
    expect(cli.stderr()).toContain(`kennel: ${message}`);
    expect(cli.stderr()).not.toContain('secret');
  });

  it.each([
    [['--data', path.join(tmpdir(), 'kennel-never-written.json')], '--data'],
    [['--stateless'], '--stateless'],
  ])('--proxy with %j is refused with exit 2: the flag would do nothing', async (flags, name) => {
    const cli = runCli(['serve', '--port', '0', '--no-world', '--proxy', 'http://127.0.0.1:1', ...flags]);
    expect(await cli.code).toBe(2);
    expect(cli.stderr()).toBe(
      `kennel: ${name} does nothing with --proxy: every API request goes to the deployment, which keeps its own state\n`,
    );
  });

  it('--proxy-timeout without --proxy is refused with exit 2', async () => {
    const cli = runCli(['serve', '--port', '0', '--no-world', '--proxy-timeout', '500']);
    expect(await cli.code).toBe(2);
    expect(cli.stderr()).toBe('kennel: --proxy-timeout and --proxy-max-response need --proxy <url>\n');
  });
});
