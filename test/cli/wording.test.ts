// What kennel shows a person, in words: why a report path cannot be written, the banner's world
// lines, the key the documentation page holds, and what a Prefer: code=404 answer says.
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMock, type RunningMock } from '../../src/index.js';
import { runCli } from '../helpers/cli.js';

const INVENTORY = fileURLToPath(new URL('../fixtures/inventory-basic.yaml', import.meta.url));
const dir = mkdtempSync(path.join(os.tmpdir(), 'kennel-wording-'));
let mock: RunningMock;
beforeAll(async () => {
  mock = await startMock({ apiKeys: ['small-key'] });
});
afterAll(() => mock.close());

describe('report paths that cannot be written say why in words', { timeout: 60_000 }, () => {
  it.each([
    [
      'a file where its directory should be',
      () => {
        writeFileSync(path.join(dir, 'a-file'), '');
        return path.join(dir, 'a-file', 'report.xml');
      },
      'a file stands where its directory should be',
    ],
    ['a directory', () => dir, 'it is a directory: name a file'],
  ])('%s', async (_what, target, reason) => {
    const file = target();
    const cli = runCli([
      'check',
      '--base-url',
      mock.url,
      '--api-key',
      'small-key',
      '--seed',
      '1',
      '--junit',
      file,
      '--check',
      'auth-enforced',
    ]);
    expect(await cli.code).toBe(2);
    expect(cli.stderr()).toContain(`kennel: ${file}: cannot write the report: ${reason}`);
    expect(cli.stderr()).not.toMatch(/EEXIST|ENOTDIR|EISDIR/);
  });
});

describe("the domain simulator's banner lines", { timeout: 60_000 }, () => {
  it('are left out for a document of your own unless you ask for the world', async () => {
    const cli = runCli(['serve', INVENTORY, '-p', '0', '--log-level', 'silent']);
    await cli.ready;
    cli.stop();
    expect(await cli.code).toBe(0);
    expect(cli.stderr()).toContain('serving Inventory 2.0.0');
    expect(cli.stderr()).not.toMatch(/^ {2}(domains|world) /m);
  });

  it('are shown for the bundled Pet Store, whose documentation platform the world is', async () => {
    const cli = runCli(['serve', '-p', '0', '--log-level', 'silent']);
    await cli.ready;
    cli.stop();
    expect(await cli.code).toBe(0);
    expect(cli.stderr()).toMatch(/^ {2}domains /m);
  });
});

describe('the documentation page key field', { timeout: 60_000 }, () => {
  const keyField = async (running: RunningMock) => {
    const page = await (await fetch(`${running.origin}/__kennel/docs`)).text();
    return /<input id="api-key"[^>]*>/.exec(page)?.[0] ?? '';
  };

  it('holds the development key when the mock has no other, so the first try-it click is authorised', async () => {
    const open = await startMock();
    try {
      expect(await keyField(open)).toContain('value="kennel-dev-key"');
      const response = await fetch(`${open.url}/pets?limit=1`, { headers: { authorization: 'Bearer kennel-dev-key' } });
      expect(response.status).toBe(200);
    } finally {
      await open.close();
    }
  });

  it('never holds a configured key', async () => {
    const field = await keyField(mock);
    expect(field).not.toContain('value=');
    expect(field).not.toContain('small-key');
  });
});

describe('Prefer: code=404 speaks about this request, not the example', () => {
  it('GET /pets/1 with Prefer: code=404 does not say "No pet with id 42"', async () => {
    const headers = { authorization: 'Bearer small-key', prefer: 'code=404' };
    const response = await fetch(`${mock.url}/pets/1`, { headers });
    expect(response.status).toBe(404);
    const body = (await response.json()) as { code: string; message: string; status: number };
    expect(body.message).not.toContain('42');
    expect(body).toMatchObject({ status: 404, message: expect.stringContaining('Prefer: code=404') });
    // The documented example is still there for whoever asks for it by name.
    const named = await fetch(`${mock.url}/pets/1`, { headers: { ...headers, prefer: 'code=404, example=not-found' } });
    expect(named.status).toBe(404);
  });
});
