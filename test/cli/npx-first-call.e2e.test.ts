import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
// @ts-expect-error: a plain ES module of scripts/, without types
import { buildNeeded } from '../../scripts/prepare.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const cache = mkdtempSync(path.join(os.tmpdir(), 'kennel-npx-cache-'));
afterAll(() => rmSync(cache, { recursive: true, force: true }));

describe('the first npx kennel in a built checkout', { timeout: 60_000 }, () => {
  it('does not rebuild the checkout npm installs into its npx cache', () => {
    const before = statSync(path.join(ROOT, 'dist', 'cli', 'main.js')).mtimeMs;
    // An empty npm cache: npm has never run kennel from here, as after a fresh clone and npm ci.
    const result = spawnSync('npx', ['--cache', cache, '--offline', 'kennel', '--version'], {
      cwd: ROOT,
      encoding: 'utf8',
      env: { ...process.env, PATH: `${path.join(ROOT, 'node_modules', '.bin')}${path.delimiter}${process.env.PATH}` },
    });
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
    expect(statSync(path.join(ROOT, 'dist', 'cli', 'main.js')).mtimeMs).toBe(before);
  });

  it('prepare builds everywhere but under npm exec with dist/ in place, and npm pack (prepack builds)', () => {
    expect(buildNeeded({ npm_command: 'exec' }, ROOT)).toBe(false);
    expect(buildNeeded({ npm_command: 'ci' }, ROOT)).toBe(true);
    expect(buildNeeded({ npm_command: 'install' }, ROOT)).toBe(true);
    // npm pack and publish build in prepack.
    expect(buildNeeded({ npm_command: 'pack' }, ROOT)).toBe(false);
    expect(buildNeeded({ npm_command: 'exec' }, path.join(ROOT, 'test'))).toBe(true);
  });
});
