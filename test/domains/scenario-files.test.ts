import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { XMLValidator } from 'fast-xml-parser';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';

const dir = mkdtempSync(path.join(tmpdir(), 'kennel-scenarios-'));
function scenario(name: string, text: string): string {
  const file = path.join(dir, name);
  writeFileSync(file, text);
  return file;
}

const valid = `description: ok
steps:
  - add-domain: docs.example.com
    expect: { outcome: plan_required }
given:
  plan: free
`;

describe('kennel scenario run: broken files are tool errors naming file:line (exit 2)', () => {
  it.each([
    ['bad-yaml', 'description: x\nsteps: [\n', /bad-yaml\.yaml:3:1: invalid YAML/],
    [
      'misspelt',
      'description: x\nsteps:\n  - verfy: docs.example.com\n',
      /misspelt\.yaml:3: unknown key "verfy"; a step has name, expect and one action of: add-domain, verify/,
    ],
    [
      'two-actions',
      'description: x\nsteps:\n  - verify: a.example.com\n    advance: 1m\n',
      /two-actions\.yaml:3: step 1 has 2 actions \(verify, advance\)/,
    ],
    ['no-action', 'description: x\nsteps:\n  - name: lonely\n', /no-action\.yaml:3: step 1 has no action/],
    [
      'bad-duration',
      'description: x\nsteps:\n  - verify: a.example.com\n  - advance: 2 days\n',
      /bad-duration\.yaml:4: .*must match pattern/,
    ],
    [
      'huge-duration',
      'description: x\nsteps:\n  - verify: a.example.com\n  - advance: 99999999999999999999d\n',
      /huge-duration\.yaml:4: "99999999999999999999d" is longer than the 3650d \(10 years\) kennel accepts/,
    ],
    [
      'long-span',
      'description: x\nsteps:\n  - advance: 2000d\n  - verify: a.example.com\n  - advance: 1651d\n',
      /long-span\.yaml:5: the steps advance the clock by more than 3650d \(10 years\) in all/,
    ],
    [
      'wrong-enum',
      'description: x\ngiven:\n  plan: gold\nsteps:\n  - verify: a.example.com\n',
      /wrong-enum\.yaml:3: must be one of: "free", "pro", "enterprise"/,
    ],
    [
      'no-description',
      'steps:\n  - verify: a.example.com\n',
      /no-description\.yaml:1: missing required key "description"/,
    ],
    [
      'expect-typo',
      'description: x\nsteps:\n  - verify: a.example.com\n    expect:\n      domain: { dsn: verified }\n',
      /expect-typo\.yaml:5: unknown key "dsn"/,
    ],
    [
      'duplicate-names',
      'description: x\nsteps:\n  - name: a\n    verify: a.example.com\n  - name: a\n    verify: a.example.com\n',
      /duplicate-names\.yaml:5: step name "a" is used twice/,
    ],
    [
      'serial-of-a-later-step',
      'description: x\nsteps:\n  - check: a.example.com\n    expect:\n      domain: { sameSerialAs: later }\n  - name: later\n    check: a.example.com\n',
      /serial-of-a-later-step\.yaml:5: sameSerialAs names "later", which is not the name of an earlier step/,
    ],
  ])('%s', async (name, text, message) => {
    const file = scenario(`${name}.yaml`, text);
    const cli = runCli(['scenario', 'run', file]);
    expect(await cli.code).toBe(2);
    expect(cli.stderr()).toMatch(message);
    expect(cli.stderr()).not.toMatch(/\n\s+at /);
  });

  it('a missing path', async () => {
    const cli = runCli(['scenario', 'run', path.join(dir, 'absent.yaml')]);
    expect(await cli.code).toBe(2);
    expect(cli.stderr()).toContain('absent.yaml: no such file or directory');
  });
});

describe('kennel scenario run and list', () => {
  it('runs a passing scenario (exit 0) and writes JUnit', async () => {
    const file = scenario('free-plan.yaml', valid);
    const junit = path.join(dir, 'scenarios.xml');
    const cli = runCli(['scenario', 'run', file, '--junit', junit]);
    expect(await cli.code).toBe(0);
    expect(cli.stdout()).toMatch(
      /^PASS {2}free-plan: ok\n {2}T\+00:00:00 +add-domain docs\.example\.com {2}→ {2}refused: plan_required/,
    );
    expect(cli.stdout()).toContain('1 of 1 scenarios passed');
    expect(XMLValidator.validate(readFileSync(junit, 'utf8'))).toBe(true);
  });

  it('exits 1 when an expectation fails, naming the file and line of the step', async () => {
    const file = scenario(
      'failing.yaml',
      'description: wrong on purpose\nsteps:\n  - add-domain: docs.example.com\n    expect: { outcome: ok }\ngiven:\n  plan: free\n',
    );
    const cli = runCli(['scenario', 'run', file]);
    expect(await cli.code).toBe(1);
    expect(cli.stdout()).toContain(`${file}:3: outcome: expected "ok", got "plan_required"`);
    expect(cli.stdout()).toMatch(/^FAIL {2}failing/);
  });

  it('lists the bundled scenarios with their rules', async () => {
    const cli = runCli(['scenario', 'list']);
    expect(await cli.code).toBe(0);
    expect(cli.stdout()).toMatch(/^caa-blocks-issuance \[rules 7, 8\]\n {2}A CAA record/m);
  });
});
