// The commit style (CONTRIBUTING.md, "Commits") as the commit-msg hook holds it.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { commitMessageProblems } from '../../scripts/commit-message.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const WHY = '\n\nThe reason, in a sentence or two.\n';

describe('commit messages', () => {
  it.each([
    ['a short subject and a body', `lint: type-aware promise rules${WHY}`],
    ['a subject of exactly 72 characters', `${'x'.repeat(72)}${WHY}`],
    ['comment lines git adds are ignored', `subject${WHY}# Please enter the commit message\n`],
    ["git's own merges", "Merge branch 'docs'\n"],
    ['fixups', 'fixup! lint: type-aware promise rules\n'],
  ])('accepts %s', (_name, message) => {
    expect(commitMessageProblems(message)).toEqual([]);
  });

  it.each([
    ['a subject of 73 characters', `${'x'.repeat(73)}${WHY}`, 'the subject has 73 characters; at most 72'],
    ['no body', 'docs: something\n', 'a body after a blank line must say why'],
    ['a body without the blank line', 'docs: something\nbecause\n', 'a blank line must follow the subject'],
    ['an empty message', '\n', 'the subject is empty'],
  ])('refuses %s', (_name, message, problem) => {
    expect(commitMessageProblems(message)).toContain(problem);
  });

  it('the hook script exits 1 with the problem, 0 for a good message', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'kennel-commit-'));
    try {
      const good = path.join(dir, 'good');
      const bad = path.join(dir, 'bad');
      writeFileSync(good, `docs: a subject${WHY}`);
      writeFileSync(bad, `${'x'.repeat(80)}\n`);
      const script = path.join(ROOT, 'scripts', 'commit-message.js');
      expect(() => execFileSync(process.execPath, [script, good], { stdio: 'pipe' })).not.toThrow();
      expect(() => execFileSync(process.execPath, [script, bad], { stdio: 'pipe' })).toThrow(/at most 72/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
