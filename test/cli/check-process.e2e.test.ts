// `kennel check` as a process, as CI runs it: signals, pipes, a server started in the same breath,
// and reports written whatever happens. Uses dist/ (refresh it with `npx tsc -p tsconfig.build.json`).
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../helpers/cli.js';
import { neverEndingServer, type TestServer } from '../contract/hostile-servers.js';
import { GrowingText, waitUntil } from '../helpers/wait.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const KENNEL = path.join(ROOT, 'bin', 'kennel.js');
const dir = mkdtempSync(path.join(tmpdir(), 'kennel-check-process-'));

interface Finished {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Starts `kennel <args>` on the Node that runs the tests; `until` resolves once stdout shows `text`. */
function kennel(args: string[], env: Record<string, string> = {}) {
  const child = spawn(process.execPath, ['--max-semi-space-size=16', KENNEL, ...args], {
    cwd: ROOT,
    env: { ...process.env, ...env },
  });
  const stdout = new GrowingText();
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => stdout.append(chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const done = new Promise<Finished>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal, stdout: stdout.toString(), stderr })),
  );
  return { child, done, until: (text: string) => stdout.until(text) };
}

function bash(script: string): Promise<Finished> {
  return new Promise((resolve) => {
    const child = spawn('bash', ['-c', script], { cwd: ROOT, env: { ...process.env, KENNEL: KENNEL } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('exit', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}

describe('the first SIGINT or SIGTERM stops the run at once, and the reports are still written', () => {
  let slow: TestServer;
  beforeAll(async () => {
    slow = await neverEndingServer();
  });
  afterAll(() => slow.close());

  it.each(['SIGINT', 'SIGTERM'] as const)('%s: exit 2, the reports say the run was interrupted', async (signal) => {
    slow.requests.length = 0;
    const junit = path.join(dir, `${signal}.xml`);
    const json = path.join(dir, `${signal}.json`);
    // Every response of this deployment hangs for ever: without the signal the run would take hours.
    const run = kennel([
      'check',
      '--base-url',
      slow.url,
      '--api-key',
      'k',
      '--timeout',
      '600000',
      '--junit',
      junit,
      '--json',
      json,
    ]);
    await run.until('kennel check: ');
    // The probe, then the first request of the run, which hangs.
    await waitUntil(
      () => slow.requests.length >= 2,
      () => 'the probe and the first request',
    );
    run.child.kill(signal);
    const finished = await run.done;
    expect(finished.code, finished.stderr).toBe(2);
    expect(finished.stderr).toBe(`kennel: interrupted by ${signal}: the reports hold what was found before (exit 2)\n`);
    expect(finished.stdout).toContain(`stopped: interrupted by ${signal}`);
    expect(JSON.parse(readFileSync(json, 'utf8'))).toMatchObject({ stopped: `interrupted by ${signal}`, exitCode: 2 });
    expect(XMLValidator.validate(readFileSync(junit, 'utf8'))).toBe(true);
    expect(readFileSync(junit, 'utf8')).toContain(`stopped: interrupted by ${signal}`);
  });
});

describe('kennel check in a shell pipeline', () => {
  it('`kennel serve & kennel check --wait-for 30` needs no sleep', async () => {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}/v1`;
    const result = await bash(
      [
        `"${process.execPath}" "$KENNEL" serve --port ${port} --api-key k >/dev/null 2>&1 &`,
        'server=$!',
        `"${process.execPath}" "$KENNEL" check --base-url ${url} --api-key k --seed 1 --check auth-enforced --wait-for 30`,
        'code=$?',
        'kill $server',
        'exit $code',
      ].join('\n'),
    );
    expect(result.stderr).toBe('');
    expect(result.code, result.stdout).toBe(0);
    expect(result.stdout).toContain(`${url} conforms`);
  });

  it('`kennel check … | head` ends quietly: no EPIPE, the run finishes and keeps its exit code', async () => {
    const port = await freePort();
    const json = path.join(dir, 'piped.json');
    const result = await bash(
      [
        `"${process.execPath}" "$KENNEL" serve --port ${port} --api-key k >/dev/null 2>&1 &`,
        'server=$!',
        `"${process.execPath}" "$KENNEL" check --base-url http://127.0.0.1:${port}/v1 --api-key k --seed 1 --wait-for 30 --json ${json} | head -n 2`,
        'codes="${PIPESTATUS[*]}"',
        'kill $server',
        'echo "codes $codes"',
      ].join('\n'),
    );
    expect(result.stderr).toBe('');
    const lines = result.stdout.trim().split('\n');
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatch(/^kennel check: http:\/\/127\.0\.0\.1:\d+\/v1 against /);
    expect(lines[2]).toBe('codes 0 0');
    expect(JSON.parse(readFileSync(json, 'utf8'))).toMatchObject({ exitCode: 0 });
  });

  it('a run that cannot start still writes both reports, saying why', async () => {
    const junit = path.join(dir, 'unreachable.xml');
    const json = path.join(dir, 'unreachable.json');
    const url = `http://127.0.0.1:${await freePort()}/v1`;
    const finished = await kennel(['check', '--base-url', url, '--api-key', 'k', '--junit', junit, '--json', json])
      .done;
    expect(finished.code).toBe(2);
    expect(existsSync(junit) && existsSync(json)).toBe(true);
    const xml = readFileSync(junit, 'utf8');
    expect(XMLValidator.validate(xml)).toBe(true);
    expect(new XMLParser({ ignoreAttributes: false }).parse(xml).testsuites['@_errors']).toBe('1');
    expect(JSON.parse(readFileSync(json, 'utf8'))).toMatchObject({
      error: expect.stringContaining(`cannot reach ${url}: connection refused`),
      exitCode: 2,
    });
  });
});
