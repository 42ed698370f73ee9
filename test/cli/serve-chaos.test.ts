import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';

const dir = mkdtempSync(path.join(tmpdir(), 'kennel-chaos-'));
function file(name: string, text: string): string {
  const where = path.join(dir, name);
  writeFileSync(where, text);
  return where;
}

const AUTH = { authorization: 'Bearer kennel-dev-key' };

describe('kennel serve with chaos and a virtual now', () => {
  it('reads a chaos file and flags (file rules first), prints them, and serves the past-sunset API', async () => {
    const chaos = file('chaos.yaml', 'seed: 9\nrules:\n  - match: createPet\n    fault: 503\n');
    const cli = runCli(
      [
        'serve',
        '--port',
        '0',
        '--log-level',
        'silent',
        '--chaos',
        chaos,
        '--latency',
        'listPets:1ms',
        '--fault',
        'getPet:malformed:0',
      ],
      { KENNEL_NOW: '2030-12-06' },
    );
    const { url, origin } = await cli.ready;
    const table = (await (await fetch(`${origin}/__kennel/chaos`)).json()) as any;
    expect(table.seed).toBe(9);
    expect(table.rules.map((rule: { match: string }) => rule.match)).toEqual(['createPet', 'listPets', 'getPet']);
    expect((await fetch(`${url}/pets/1`, { headers: AUTH })).status).toBe(410);
    const created = await fetch(`${url}/pets`, {
      method: 'POST',
      headers: { ...AUTH, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Rex', categoryId: 1, status: 'available' }),
    });
    expect(created.status).toBe(503);
    cli.stop();
    expect(await cli.code).toBe(0);
    expect(cli.stderr()).toContain('  chaos    3 rules, seed 9');
    expect(cli.stderr()).toContain('createPet: fault 503');
    expect(cli.stderr()).toContain('getPet: fault malformed, 0%');
    expect(cli.stderr()).toContain('  now      2030-12-06T00:00');
  });

  it('--now beats KENNEL_NOW, and --after-sunset keep keeps getPet answering', async () => {
    const cli = runCli(
      ['serve', '--port', '0', '--log-level', 'silent', '--now', '2031-01-01', '--after-sunset', 'keep'],
      {
        KENNEL_NOW: 'not a date',
      },
    );
    const { url, origin } = await cli.ready;
    expect((await fetch(`${url}/pets/1`, { headers: AUTH })).status).toBe(200);
    expect(((await (await fetch(`${origin}/__kennel/now`)).json()) as any).now).toMatch(/^2031-01-01T00:00/);
    cli.stop();
    expect(await cli.code).toBe(0);
  });
});

describe('bad chaos and time input: exit 2 with a located message', () => {
  it.each([
    [
      ['--fault', 'getPet:boom'],
      ["'--fault <fault>'", '"boom" is not a fault'],
    ],
    [
      ['--fault', 'getPet:reset:2'],
      ["'--fault <fault>'", 'not a probability'],
    ],
    [
      ['--latency', '300-100ms'],
      ["'--latency <delay>'", 'from low to high'],
    ],
    [
      ['--now', '2030-02-30'],
      ["'--now <instant>'", 'not a real instant'],
    ],
    [
      ['--after-sunset', 'maybe'],
      ["'--after-sunset <mode>'", 'gone, keep'],
    ],
    [
      ['--fault', 'getPett:reset'],
      ['chaos rule 1 (getPett: fault reset): no operation "getPett"', 'listPets'],
    ],
  ])('%j', async (flags, messages) => {
    const cli = runCli(['serve', '--port', '0', '--log-level', 'silent', ...flags]);
    expect(await cli.code).toBe(2);
    for (const message of messages) expect(cli.stderr()).toContain(message);
    expect(cli.stderr()).not.toMatch(/\n\s+at /);
  });

  it('KENNEL_NOW that is not an instant', async () => {
    const cli = runCli(['serve', '--port', '0'], { KENNEL_NOW: 'next tuesday' });
    expect(await cli.code).toBe(2);
    expect(cli.stderr()).toContain('KENNEL_NOW: "next tuesday" is not an instant');
  });

  it.each([
    [
      'bad-rule.yaml',
      'rules:\n  - match: getPet\n    fault: reset\n  - match: listPets\n    fault: rest\n',
      ':5: /rules/1/fault: "rest" is not a fault',
    ],
    ['bad-yaml.yaml', 'rules: [\n', ':2:1: invalid YAML'],
    ['bad-key.json', '{"rules": [], "sed": 3}', ':1: /sed: is not allowed here'],
    [
      'alias-bomb.yaml',
      `a: &a [x, x, x, x, x, x, x, x, x]\n${['b', 'c', 'd', 'e', 'f']
        .map((name, index) => `${name}: &${name} [${Array(9).fill(`*${'abcdef'[index]}`).join(', ')}]`)
        .join('\n')}\nrules: [*f]\n`,
      ':2:8: invalid YAML: Excessive alias count',
    ],
    [
      'unknown-op.yaml',
      'rules:\n  - match: deletePet\n    latency: 10ms\n',
      'chaos rule 1 (deletePet: latency 10ms): no operation "deletePet"',
    ],
  ])('a chaos file %s', async (name, text, message) => {
    const where = file(name, text);
    const cli = runCli(['serve', '--port', '0', '--chaos', where]);
    expect(await cli.code).toBe(2);
    expect(cli.stderr()).toContain(message);
    if (!name.startsWith('unknown')) expect(cli.stderr()).toContain(where);
  });

  it('a chaos file that is not there', async () => {
    const cli = runCli(['serve', '--port', '0', '--chaos', path.join(dir, 'missing.yaml')]);
    expect(await cli.code).toBe(2);
    expect(cli.stderr()).toContain('missing.yaml: cannot read the chaos file: ENOENT');
  });
});
