import { execFileSync, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { freePort } from '../helpers/cli.js';
import { GrowingText, waitUntil } from '../helpers/wait.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

// The first `npx kennel` of a checkout installs it (a link) into npm's npx cache; `prepare` does not
// build again there (scripts/prepare.js), but a busy machine still needs room, once.
/** Spawns `npx kennel serve …` as a user would (the built dist/, Node 24 from node_modules/.bin). */
describe('npx kennel serve (spawned process)', { timeout: 60_000 }, () => {
  it('serves the spec on the given port and key, and exits cleanly on SIGTERM', async () => {
    const port = await freePort();
    // Its own process group, signalled as a whole like Ctrl-C in a terminal: npm exec does not
    // pass SIGTERM on to the command, which would otherwise outlive the test.
    const child = spawn('npx', ['--no-install', 'kennel', 'serve', '--port', String(port), '--api-key', 'e2e-key'], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    const stderr = new GrowingText();
    child.stderr.on('data', (chunk: Buffer) => stderr.append(chunk));
    const exited = new Promise<{ code: number | null; signal: string | null }>((resolve) =>
      child.on('exit', (code, signal) => resolve({ code, signal })),
    );
    try {
      await stderr.until('API      ', 45_000); // a cold npx installs the checkout into its cache first (above)
      const base = `http://127.0.0.1:${port}/v1`;
      const list = await fetch(`${base}/pets?limit=100`, { headers: { authorization: 'Bearer e2e-key' } });
      expect(list.status).toBe(200);
      expect(((await list.json()) as unknown[]).length).toBe(30);
      const created = await fetch(`${base}/pets`, {
        method: 'POST',
        headers: { authorization: 'Bearer e2e-key', 'content-type': 'application/json' },
        body: '{"name":"Spawned","categoryId":2}',
      });
      expect(created.status).toBe(201);
      const { id } = (await created.json()) as { id: number };
      expect((await fetch(`${base}/pets/${id}`, { headers: { authorization: 'Bearer e2e-key' } })).status).toBe(200);
      expect((await fetch(`${base}/pets`)).status).toBe(401);
    } finally {
      process.kill(-child.pid!, 'SIGTERM');
    }
    expect([
      { code: 0, signal: null },
      { code: null, signal: 'SIGTERM' },
    ]).toContainEqual(await exited);
    await waitUntil(
      () => !portAnswers(port),
      () => `kennel still listens on ${port} after SIGTERM`,
    );
  });

  it.each(['SIGINT', 'SIGTERM'] as const)('bin/kennel.js closes the server and exits 0 on %s', async (signal) => {
    const port = await freePort();
    const child = spawn(process.execPath, ['bin/kennel.js', 'serve', '--port', String(port)], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const stderr = new GrowingText();
    child.stderr.on('data', (chunk: Buffer) => stderr.append(chunk));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    await stderr.until('API      ');
    expect((await fetch(`http://127.0.0.1:${port}/__kennel/health`)).status).toBe(200);
    child.kill(signal);
    expect(await exited).toBe(0);
  });
});

function portAnswers(port: number): boolean {
  try {
    execFileSync(process.execPath, [
      '-e',
      `require('net').connect(${port}, '127.0.0.1').on('connect', () => process.exit(0)).on('error', () => process.exit(1))`,
    ]);
    return true;
  } catch {
    return false;
  }
}
