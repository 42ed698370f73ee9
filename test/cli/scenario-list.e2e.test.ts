import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** Spawns `bin/kennel.js <argv>` (the built dist/) and resolves with its exit code and output. */
async function kennel(argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, ['bin/kennel.js', ...argv], {
      cwd: ROOT,
      timeout: 30_000,
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

function folder(files: Record<string, string>): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'kennel-list-'));
  for (const [name, text] of Object.entries(files)) writeFileSync(path.join(dir, name), text);
  return dir;
}

const good = (description: string) => `description: ${description}\nrules: [1]\nsteps:\n  - verify: a.example.com\n`;

describe('kennel scenario list: a broken file is reported, the others are listed (exit 2)', () => {
  it('names the broken file by file:line and still lists the files before and after it', async () => {
    const dir = folder({
      'a-first.yaml': good('the first'),
      'b-broken.yaml': 'description: x\nsteps:\n  - verfy: a.example.com\n',
      'c-last.yaml': good('the last'),
    });
    const result = await kennel(['scenario', 'list', dir]);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      `kennel: ${path.join(dir, 'b-broken.yaml')}:3: unknown key "verfy"; a step has name, expect and one action of: ${'add-domain, verify, reverify, remove-domain, set-primary, check, add-record, remove-record, advance, dig, serve, set-plan, set-deployed, add-redirect, remove-redirect, fail-dns, heal-dns, lapse-registration, renew-registration, move-domain, deploy, set-dnssec'}\n`,
    );
    expect(result.stdout).toBe('a-first [rules 1]\n  the first\nc-last [rules 1]\n  the last\n');
  });

  it('a lone broken file is the error: exit 2, its file:line, nothing listed', async () => {
    const dir = folder({ 'only.yaml': 'description: x\nsteps:\n  - advance: 2 days\n' });
    const result = await kennel(['scenario', 'list', path.join(dir, 'only.yaml')]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(new RegExp(`^kennel: ${path.join(dir, 'only.yaml')}:3: .*must match pattern`));
    expect(result.stderr).not.toMatch(/\n\s+at /);
    expect(result.stdout).toBe('');
  });

  it('lists every bundled scenario and exits 0 when none is broken', async () => {
    const result = await kennel(['scenario', 'list']);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    expect(result.stdout).toMatch(/^caa-blocks-issuance \[rules 7, 8\]$/m);
  }, 40_000);
});
