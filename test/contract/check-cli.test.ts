import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMock, type RunningMock } from '../../src/serve/server.js';
import { freePort, runCli } from '../helpers/cli.js';
import { startReferencePetstore } from './reference-petstore.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const dir = mkdtempSync(path.join(tmpdir(), 'kennel-check-'));

function npxKennel(
  args: string[],
  env: Record<string, string> = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn('npx', ['--no-install', 'kennel', ...args], { cwd: ROOT, env: { ...process.env, ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

// The first `npx kennel` of a fresh checkout copies the project into npm's cache and runs `prepare`
// (about 10 s on a quiet machine, more beside the other test files): room for that, once.
describe('npx kennel check (spawned)', { timeout: 60_000 }, () => {
  let mock: RunningMock;
  beforeAll(async () => {
    mock = await startMock({ apiKeys: ['cli-key'] });
  });
  afterAll(() => mock.close());

  it('exits 0 against kennel serve and writes JUnit and JSON reports', async () => {
    const junit = path.join(dir, 'ok.xml');
    const json = path.join(dir, 'ok.json');
    const result = await npxKennel([
      'check',
      '--base-url',
      mock.url,
      '--api-key',
      'cli-key',
      '--seed',
      '3',
      '--junit',
      junit,
      '--json',
      json,
    ]);
    expect(result.code, result.stdout + result.stderr).toBe(0);
    expect(result.stdout).toContain(`${mock.url} conforms: 0 error(s)`);
    expect(result.stdout).toContain('replay with --seed 3');
    const xml = readFileSync(junit, 'utf8');
    expect(XMLValidator.validate(xml)).toBe(true);
    // Each test case carries the time its check took on that operation; together within the run's.
    const parsed = new XMLParser({
      ignoreAttributes: false,
      isArray: (name) => ['testsuite', 'testcase'].includes(name),
    }).parse(xml);
    const times = parsed.testsuites.testsuite.flatMap((suite: { testcase: { '@_time': string }[] }) =>
      suite.testcase.map((item) => Number(item['@_time'])),
    ) as number[];
    expect(times.some((time) => time > 0)).toBe(true);
    expect(times.reduce((sum, time) => sum + time, 0)).toBeLessThanOrEqual(Number(parsed.testsuites['@_time']));
    const report = JSON.parse(readFileSync(json, 'utf8'));
    expect(report).toMatchObject({ seed: 3, exitCode: 0, errors: 0 });
    expect(readFileSync(json, 'utf8')).not.toContain('cli-key');
  });

  it('exits 1 against a broken deployment; the JUnit report names the failing checks', async () => {
    const broken = await startReferencePetstore({ fault: 'any-token' });
    try {
      const junit = path.join(dir, 'broken.xml');
      const result = await npxKennel(['check', '--base-url', broken.url, '--seed', '9', '--junit', junit], {
        KENNEL_API_KEY: broken.apiKey,
      });
      expect(result.code).toBe(1);
      expect(result.stdout).toMatch(
        /ERROR listPets · auth-enforced: accepted a request with an unknown Bearer token \(status 200\)/,
      );
      expect(result.stdout).toMatch(
        /replay: {3}curl -i -X GET 'http:\/\/127\.0\.0\.1:\d+\/v1\/pets' -H 'authorization: Bearer kennel-not-a-key-\w+'/,
      );
      expect(result.stdout).toContain('does not conform');
      const xml = readFileSync(junit, 'utf8');
      expect(XMLValidator.validate(xml)).toBe(true);
      const parsed = new XMLParser({
        ignoreAttributes: false,
        isArray: (name) => ['testsuite', 'testcase'].includes(name),
      }).parse(xml);
      const cases = parsed.testsuites.testsuite.flatMap((suite: { testcase: unknown[] }) => suite.testcase) as Record<
        string,
        unknown
      >[];
      const failing = cases
        .filter((item) => item.failure !== undefined)
        .map((item) => `${item['@_classname']} ${String(item['@_name']).split(':')[0]}`);
      // A case per unique finding, named "<check>: <finding>".
      expect(failing).toEqual(
        expect.arrayContaining([
          'kennel.listPets auth-enforced',
          'kennel.createPet auth-enforced',
          'kennel.getPet auth-enforced',
        ]),
      );
      expect(Number(parsed.testsuites['@_failures'])).toBe(failing.length);
      expect(Number(parsed.testsuites['@_tests'])).toBe(cases.length);
    } finally {
      await broken.close();
    }
  });
});

describe('kennel check could not run: exit 2 with a message naming the problem', () => {
  it('an unreachable base URL', async () => {
    const port = await freePort();
    const cli = runCli(['check', '--base-url', `http://127.0.0.1:${port}/v1`, '--api-key', 'k']);
    expect(await cli.code).toBe(2);
    expect(cli.stderr()).toBe(
      `kennel: cannot reach http://127.0.0.1:${port}/v1: connection refused; starting it just now? use --wait-for SECONDS\n`,
    );
  });

  it('a broken spec', async () => {
    const file = path.join(dir, 'broken.yaml');
    writeFileSync(file, 'openapi: 3.1.0\ninfo: [\n');
    const cli = runCli(['check', '--base-url', 'http://127.0.0.1:1/v1', '--api-key', 'k', '--spec', file]);
    expect(await cli.code).toBe(2);
    expect(cli.stderr()).toMatch(
      new RegExp(`^kennel: ${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:\\d+:\\d+: invalid YAML`),
    );
  });

  it.each([
    [['check', '--api-key', 'k'], /--base-url is required/],
    [['check', '--base-url', 'http://127.0.0.1:1/v1'], /--api-key is required/],
    [['check', '--base-url', 'not a url', '--api-key', 'k'], /--base-url "not a url" is not a URL/],
    [['check', '--base-url', 'ftp://example.com/v1', '--api-key', 'k'], /must be http or https/],
    [
      ['check', '--base-url', 'http://127.0.0.1:1/v1', '--api-key', 'k', '--check', 'speling'],
      /unknown check "speling"/,
    ],
    [
      ['check', '--base-url', 'http://127.0.0.1:1/v1', '--api-key', 'k', '--operation', 'nope'],
      /no operation of .* matches --operation\/--tag/,
    ],
    [['check', '--max-examples', '0'], /--max-examples.*integer from 1/],
    [['check', '--max-failures', '0'], /--max-failures.*integer from 1/],
    [['check', '--wait-for', 'soon'], /--wait-for.*number of seconds/],
    [['check', '--max-response-size', '10'], /--max-response-size.*between 1kb and 1gb/],
    [
      ['check', '--base-url', 'http://user:secret@127.0.0.1:1/v1', '--api-key', 'k'],
      /^kennel: --base-url cannot carry credentials \(user:password@\): use --header 'Authorization: …'\n$/,
    ],
    [['check', '--header', 'no colon'], /--header.*"Name: value"/],
  ])('%j', async (argv, message) => {
    const cli = runCli(argv);
    expect(await cli.code).toBe(2);
    expect(cli.stderr()).toMatch(message);
  });

  it('--max-response-size cuts off bodies over the limit and reports them', async () => {
    const mock = await startMock({ apiKeys: ['size-key'] });
    try {
      const cli = runCli([
        'check',
        '--base-url',
        mock.url,
        '--api-key',
        'size-key',
        '--seed',
        '1',
        '--operation',
        'listPets',
        '--max-response-size',
        '1kb',
      ]);
      expect(await cli.code).toBe(1);
      expect(cli.stdout()).toMatch(
        /ERROR listPets · not-a-server-error: no response: status 200, but the body is larger than 1024 bytes \(Content-Length \d+\): kennel stopped reading it \(--max-response-size\)/,
      );
    } finally {
      await mock.close();
    }
  });

  it('-x stops at the first failing finding and says so', async () => {
    const broken = await startReferencePetstore({ fault: 'any-token' });
    try {
      const cli = runCli(['check', '--base-url', broken.url, '--seed', '9', '-x'], { KENNEL_API_KEY: broken.apiKey });
      expect(await cli.code).toBe(1);
      expect(cli.stdout()).toContain('stopped: stopped at the first failure (--exitfirst)');
      expect(cli.stdout()).toMatch(/ \(not run\)$/m);
    } finally {
      await broken.close();
    }
  });

  it('--list-checks names every check', async () => {
    const cli = runCli(['check', '--list-checks']);
    expect(await cli.code).toBe(0);
    expect(cli.stdout()).toMatch(/^not-a-server-error +error +no request gets a 5xx/m);
    expect(cli.stdout()).toMatch(/^deprecation-signalled +warning/m);
  });
});
