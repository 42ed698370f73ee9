import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { connect } from 'node:net';
import { fileURLToPath } from 'node:url';
import { describe, expect, it, vi } from 'vitest';
import { PARENT_POLL_MS, watchParent } from '../../src/cli/parent-watch.js';
import { holdsThroughout, waitUntil } from '../helpers/wait.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

describe('kill $! on `npx kennel serve &`', () => {
  it('ends kennel too: the port stops answering within a bounded time', async () => {
    // As typed in a shell: $! is npm's pid, and kennel runs under npm's `sh -c`, not under npm.
    const shell = spawn('sh', ['-c', 'npx --no-install kennel serve --port 0 & echo "npm=$!"; wait'], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    let stdout = '';
    let stderr = '';
    shell.stdout.on('data', (chunk) => (stdout += chunk));
    shell.stderr.on('data', (chunk) => (stderr += chunk));
    try {
      await waitUntil(
        () => /API +http:\/\/127\.0\.0\.1:\d+/.test(stderr) && /npm=\d+/.test(stdout),
        () => `no banner; stderr: ${stderr}`,
      );
      const port = Number(/API +http:\/\/127\.0\.0\.1:(\d+)/.exec(stderr)![1]);
      const npmPid = Number(/npm=(\d+)/.exec(stdout)![1]);
      expect(await answers(port)).toBe(true);
      process.kill(npmPid, 'SIGTERM');
      const killed = Date.now();
      await waitUntil(
        async () => !(await answers(port)),
        () => `kennel still listens on ${port} ${Date.now() - killed} ms after kill $!`,
        { timeoutMs: 5_000 },
      );
    } finally {
      // Whatever is left of the group (the fault under test: an orphaned kennel) goes now.
      try {
        process.kill(-shell.pid!, 'SIGKILL');
      } catch {
        // Already gone.
      }
    }
  });
});

describe('an npm script that leaves kennel in the background on purpose', () => {
  it('keeps it running once the script is done, while npm goes on and after npm ends', async () => {
    // `prebg` starts kennel in the background and its shell exits; npm stays on to run `bg`.
    const dir = mkdtempSync(path.join(tmpdir(), 'kennel-npm-bg-'));
    const kennel = `${JSON.stringify(process.execPath)} ${JSON.stringify(path.join(ROOT, 'bin/kennel.js'))}`;
    const scripts = {
      // The shell waits for the banner (kennel is up and knows its parent), then exits.
      prebg: `${kennel} serve --port 0 > kennel.out 2> kennel.err < /dev/null & echo "kennel=$!"; until grep -q "API " kennel.err; do sleep 0.1; done`,
      bg: 'sleep 2',
    };
    writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'bg', version: '1.0.0', scripts }));
    const npm = spawnSync('npm', ['run', '--silent', 'bg'], { cwd: dir, encoding: 'utf8', timeout: 30_000 });
    const pid = Number(/kennel=(\d+)/.exec(npm.stdout)?.[1]);
    expect(pid, npm.stderr).toBeGreaterThan(0);
    try {
      const stderr = (): string => readFileSync(path.join(dir, 'kennel.err'), 'utf8');
      await waitUntil(
        () => /API +http:\/\/127\.0\.0\.1:\d+/.test(stderr()),
        () => `no banner; stderr: ${stderr()}`,
      );
      const port = Number(/API +http:\/\/127\.0\.0\.1:(\d+)/.exec(stderr())![1]);
      // npm has finished (spawnSync returned) and kennel's shell went long ago: it still serves.
      await holdsThroughout(
        () => answers(port),
        3 * PARENT_POLL_MS,
        () => `kennel on ${port} answers for three parent polls after npm ended`,
      );
    } finally {
      try {
        process.kill(pid, 'SIGTERM');
      } catch {
        // Already gone: the fault under test; the assertion above says so.
      }
    }
  });
});

describe('watchParent', () => {
  it('calls back once when the parent pid changes, never while it stays', async () => {
    vi.useFakeTimers();
    try {
      let ppid = 100;
      let calls = 0;
      const stop = watchParent(
        () => ppid,
        () => calls++,
        5,
      );
      vi.advanceTimersByTime(30);
      expect(calls).toBe(0);
      ppid = 1;
      vi.advanceTimersByTime(5);
      expect(calls).toBe(1);
      vi.advanceTimersByTime(30);
      expect(calls, 'once, not once per poll').toBe(1);
      stop();
      expect(PARENT_POLL_MS).toBeLessThanOrEqual(1_000);
    } finally {
      vi.useRealTimers();
    }
  });
});

function answers(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}
