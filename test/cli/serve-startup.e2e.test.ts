import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

interface Ended {
  code: number | null;
  signal: string | null;
  stderr: string;
}

/**
 * Spawns `bin/kennel.js <argv>` (the built dist/) and resolves when it exits. A process that is
 * still running after a failed start-up is the fault under test: it is told so (SIGTERM, then
 * SIGKILL) rather than left to time the test out, and the result says which signal ended it.
 */
function kennel(argv: string[]): Promise<Ended> {
  const child = spawn(process.execPath, ['bin/kennel.js', ...argv], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr += chunk));
  return new Promise((resolve) => {
    const stuck = setTimeout(() => {
      child.kill('SIGTERM');
      setTimeout(() => child.kill('SIGKILL'), 2_000).unref();
    }, 10_000);
    child.on('exit', (code, signal) => {
      clearTimeout(stuck);
      resolve({ code, signal, stderr });
    });
  });
}

const blockers: Server[] = [];
afterEach(() => blockers.splice(0).forEach((server) => server.close()));

async function busyPort(): Promise<number> {
  const server = createServer();
  blockers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as { port: number }).port;
}

describe('kennel serve (spawned) exits 2 with a clear message when start-up fails', () => {
  it('--dns-port 0 --site-port <busy>: the DNS server started first does not keep it alive', async () => {
    const busy = await busyPort();
    const ended = await kennel(['serve', '--port', '0', '--dns-port', '0', '--site-port', String(busy)]);
    expect(ended).toEqual({
      code: 2,
      signal: null,
      stderr: `kennel: site port ${busy} on 127.0.0.1 is already in use; choose another with --site-port\n`,
    });
  });

  it('--port <busy> --dns-port 0 --site-port 0', async () => {
    const busy = await busyPort();
    const ended = await kennel(['serve', '--port', String(busy), '--dns-port', '0', '--site-port', '0']);
    expect(ended).toEqual({
      code: 2,
      signal: null,
      stderr: `kennel: port ${busy} on 127.0.0.1 is already in use; choose another with --port\n`,
    });
  });

  it('a bad --world-file, with --dns-port 0', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'kennel-spawn-'));
    const file = path.join(dir, 'world.json');
    writeFileSync(file, '{\n  "start": "soon"\n}\n');
    const ended = await kennel(['serve', '--port', '0', '--dns-port', '0', '--world-file', file]);
    expect(ended.code).toBe(2);
    expect(ended.stderr).toMatch(
      new RegExp(`^kennel: ${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:2: start must be`),
    );
  });
});
