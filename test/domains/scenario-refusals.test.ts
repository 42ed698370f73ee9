import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';

// Scenario files and the DNS users really have: refusals are located steps, one broken file does
// not stop a directory run, and a name too long is that step's error, not the whole file's.
const root = mkdtempSync(path.join(tmpdir(), 'kennel-scenario-refusals-'));
function write(dir: string, name: string, text: string): string {
  mkdirSync(path.join(root, dir), { recursive: true });
  const file = path.join(root, dir, name);
  writeFileSync(file, text);
  return file;
}
const long = `${'a'.repeat(60)}.${'b'.repeat(60)}.${'c'.repeat(60)}.${'d'.repeat(60)}.example.com`;

describe('scenario steps at the platform zone', () => {
  it('an add-record at the platform host fails its step with platform_zone, located', async () => {
    const file = write(
      'platform',
      'platform.yaml',
      'description: x\nsteps:\n  - check: docs.example.com\n  - add-record: { name: petstore-docs.kennel-pages.dev, type: CAA, value: { flags: 0, tag: issue, value: nobody.example } }\n',
    );
    const cli = runCli(['scenario', 'run', file]);
    expect(await cli.code).toBe(1);
    expect(cli.stdout()).toContain(`${file}:4: refused: platform_zone`);
  });

  it('expected, it passes', async () => {
    const file = write(
      'platform',
      'expected.yaml',
      'description: x\nsteps:\n  - remove-record: { name: petstore-docs.kennel-pages.dev, type: A }\n    expect: { outcome: platform_zone }\n',
    );
    const cli = runCli(['scenario', 'run', file]);
    expect(await cli.code, cli.stdout()).toBe(0);
  });
});

describe('a name longer than 253 characters', () => {
  it('is the error of its step (invalid_name, located), and the other steps run', async () => {
    expect(long.length).toBeGreaterThan(253);
    const file = write(
      'long',
      'long.yaml',
      `description: x\nsteps:\n  - add-domain: docs.example.com\n    expect: { outcome: ok }\n  - add-domain: ${long}\n    expect: { outcome: invalid_name }\n  - add-record: { name: ${long}, type: A, value: 192.0.2.1 }\n`,
    );
    const cli = runCli(['scenario', 'run', file]);
    expect(cli.stderr()).toBe('');
    expect(await cli.code).toBe(1);
    expect(cli.stdout()).toContain(`${file}:7: refused: invalid_name (the name is longer than 253 characters)`);
    expect(cli.stdout()).not.toContain(`${file}:5:`);
  });
});

describe('kennel scenario run DIR with a broken file', () => {
  it('reports the broken file, runs the others, and exits non-zero', async () => {
    write(
      'mixed',
      'a-good.yaml',
      'description: good\nsteps:\n  - add-domain: docs.example.com\n    expect: { outcome: ok }\n',
    );
    write('mixed', 'b-broken.yaml', 'description: x\nsteps:\n  - verfy: docs.example.com\n');
    write('mixed', 'c-good.yaml', 'description: good too\nsteps:\n  - check: docs.example.com\n');
    const cli = runCli(['scenario', 'run', path.join(root, 'mixed')]);
    expect(await cli.code).toBe(2);
    expect(cli.stderr()).toContain(`${path.join(root, 'mixed', 'b-broken.yaml')}:3: unknown key "verfy"`);
    expect(cli.stdout()).toMatch(/^PASS {2}a-good/m);
    expect(cli.stdout()).toMatch(/^PASS {2}c-good/m);
    expect(cli.stdout()).toContain('2 of 2 scenarios passed; 1 file could not be run: b-broken.yaml');
  });
});
