import { spawn } from 'node:child_process';
import { connect } from 'node:net';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { PARENT_POLL_MS, watchParent } from '../../src/cli/parent-watch.js';

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
      await waitFor(
        () => /API +http:\/\/127\.0\.0\.1:\d+/.test(stderr) && /npm=\d+/.test(stdout),
        () => `no banner; stderr: ${stderr}`,
      );
      const port = Number(/API +http:\/\/127\.0\.0\.1:(\d+)/.exec(stderr)![1]);
      const npmPid = Number(/npm=(\d+)/.exec(stdout)![1]);
      expect(await answers(port)).toBe(true);
      process.kill(npmPid, 'SIGTERM');
      const killed = Date.now();
      await waitFor(
        async () => !(await answers(port)),
        () => `kennel still listens on ${port} ${Date.now() - killed} ms after kill $!`,
        5_000,
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

describe('watchParent', () => {
  it('calls back once when the parent pid changes, never while it stays', async () => {
    let ppid = 100;
    let calls = 0;
    const stop = watchParent(
      () => ppid,
      () => calls++,
      5,
    );
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(calls).toBe(0);
    ppid = 1;
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(calls).toBe(1);
    stop();
    expect(PARENT_POLL_MS).toBeLessThanOrEqual(1_000);
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

async function waitFor(
  condition: () => boolean | Promise<boolean>,
  describe: () => string,
  timeoutMs = 30_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(describe());
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
