import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run } from '../../src/cli/main.js';
import type { CliIo } from '../../src/cli/io.js';
import { progressLine, terminalProgress } from '../../src/contract/reporters/progress.js';
import { startMock, type RunningMock } from '../../src/index.js';

const KEY = 'progress-key';
let mock: RunningMock;
beforeAll(async () => {
  mock = await startMock({ apiKeys: [KEY] });
});
afterAll(() => mock.close());

/** `kennel check` in process, with stderr a terminal or not. */
async function check(extra: string[], stderrIsTerminal: boolean) {
  let stdout = '';
  let stderr = '';
  const io: CliIo = {
    env: {},
    stdout: { write: (text: string) => (stdout += text) },
    stderr: { write: (text: string) => (stderr += text) },
    logStream: new PassThrough(),
    stderrIsTerminal,
    signal: new AbortController().signal,
  };
  const code = await run(['check', '--base-url', mock.url, '--api-key', KEY, '--seed', '4', ...extra], io);
  return { code, stdout, stderr };
}

describe('progress of kennel check', { timeout: 60_000 }, () => {
  it('the live line says phase, steps, requests, findings and time', () => {
    expect(progressLine({ phase: 'auth-enforced', done: 12, total: 128, requests: 40, findings: 1 }, 3_140)).toBe(
      'auth-enforced · 12/128 steps · 40 requests · 1 finding · 3.1 s',
    );
    expect(progressLine({ phase: 'discovery', done: 0, total: 0, requests: 2, findings: 0 }, 125_000)).toBe(
      'discovery · 2 requests · 0 findings · 2 min 05 s',
    );
  });

  it('on a terminal: redrawn in place, at most every 100 ms, erased at the end', () => {
    let text = '';
    let clock = 1_000;
    const reporter = terminalProgress(
      (chunk) => (text += chunk),
      () => clock,
    );
    reporter.runStart!({} as never);
    const step = { phase: 'x', done: 1, total: 4, requests: 1, findings: 0 };
    reporter.progress!(step);
    clock += 50;
    reporter.progress!({ ...step, done: 2 });
    clock += 60;
    reporter.progress!({ ...step, done: 3 });
    void reporter.runEnd!({} as never);
    expect(text).toBe(
      '\r\x1b[Kx · 1/4 steps · 1 requests · 0 findings · 0.0 s\r\x1b[Kx · 3/4 steps · 1 requests · 0 findings · 0.1 s\r\x1b[K',
    );
  });

  it('a terminal gets the live line on stderr and no progress lines on stdout', async () => {
    const result = await check([], true);
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(/\r\x1b\[K\S+ · (\d+\/\d+ steps · )?\d+ requests · \d+ findings? · \d+\.\d s/);
    expect(result.stderr.endsWith('\r\x1b[K')).toBe(true);
    expect(result.stdout).not.toMatch(/ requests · \d+ findings/);
  });

  it('not a terminal: a plain line per phase with the counts so far', async () => {
    const result = await check([], false);
    expect(result.stderr).toBe('');
    expect(result.stdout).toMatch(/^ {2}discovery · \d+\/\d+ steps · \d+ requests · 0 findings · \d+\.\d s$/m);
    expect(result.stdout).toMatch(/^ {2}auth-enforced · \d+\/\d+ steps · \d+ requests · 0 findings · /m);
  });

  it('--quiet: the verdict only, no header, no progress', async () => {
    const result = await check(['--quiet'], true);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    expect(result.stdout).not.toMatch(/kennel check:|listPets \(GET \/pets\)| requests · /);
    expect(result.stdout).toMatch(/conforms: 0 error\(s\)/);
  });

  it('--verbose: each case as it finishes', async () => {
    const result = await check(['--verbose'], false);
    expect(result.stdout).toMatch(/^ {4}ok {4}auth-enforced {2}listPets$/m);
  });
});
