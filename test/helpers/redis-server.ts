import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { waitUntil } from './wait.js';

/** Debian's redis-server (`apt-get install redis-server`, done by .ci/run). */
export const REDIS_SERVER = '/usr/bin/redis-server';

/** Redis tests are skipped on a developer machine without redis-server; in CI its absence fails them. */
export const NO_REDIS = !existsSync(REDIS_SERVER) && !process.env.CI;

/** A real redis-server of this test's own, reached by `url` (`unix:///…/redis.sock`). */
export interface TestRedis {
  url: string;
  socket: string;
  /** Sends one command (inline form) and resolves with Redis's raw reply text. */
  send(command: string): Promise<string>;
  /** True when Redis does not answer a PING within 100 ms: a command holds it, or it is stopped. */
  busy(): Promise<boolean>;
  /** Stops the server (SIGTERM to its PID) and waits for it to exit. */
  stop(): Promise<void>;
  /** Freezes the server (SIGSTOP): connections stay open, nothing is answered, as a hung host does. */
  pause(): void;
  /** Lets a paused server go on (SIGCONT). */
  resume(): void;
  /** Starts it again on the same socket (empty: no persistence). */
  start(): Promise<void>;
  /** Stops it and removes its folder. */
  dispose(): Promise<void>;
}

/**
 * Starts redis-server on a Unix socket in a fresh temporary folder, with no TCP port (`--port 0`):
 * nothing is probed then bound, no port can clash with another test, and the URL is known before
 * it starts. No persistence (`--save '' --appendonly no`).
 */
export async function startRedis(): Promise<TestRedis> {
  const folder = mkdtempSync(path.join(tmpdir(), 'kennel-redis-'));
  const socket = path.join(folder, 'redis.sock');
  let child: ChildProcess | undefined;
  const send = (command: string) => sendCommand(socket, command);
  const start = async () => {
    const args = ['--port', '0', '--unixsocket', socket, '--save', '', '--appendonly', 'no', '--dir', folder];
    // DEBUG SLEEP makes a slow server on demand; Redis 7 allows DEBUG only when asked to.
    args.push('--enable-debug-command', 'local');
    child = spawn(REDIS_SERVER, args, { stdio: 'ignore' });
    const spawned = child;
    await waitUntil(
      async () => {
        if (spawned.exitCode !== null) throw new Error(`redis-server exited with ${spawned.exitCode}`);
        return (await send('PING').catch(() => '')) === '+PONG\r\n';
      },
      () => 'redis-server to answer PING',
      { timeoutMs: 10_000 },
    );
  };
  const stop = async () => {
    const running = child;
    child = undefined;
    if (!running || running.exitCode !== null) return;
    running.kill('SIGCONT');
    const exited = new Promise((resolve) => running.once('exit', resolve));
    running.kill('SIGTERM');
    await exited;
  };
  await start();
  return {
    url: `unix://${socket}`,
    socket,
    send,
    busy: async () => (await sendCommand(socket, 'PING', 100).catch(() => 'no answer')) !== '+PONG\r\n',
    start,
    stop,
    pause: () => child?.kill('SIGSTOP'),
    resume: () => child?.kill('SIGCONT'),
    dispose: async () => {
      await stop();
      rmSync(folder, { recursive: true, force: true });
    },
  };
}

function sendCommand(socket: string, command: string, timeoutMs = 2_000): Promise<string> {
  return new Promise((resolve, reject) => {
    const connection = connect(socket);
    let reply = '';
    connection.setTimeout(timeoutMs, () =>
      connection.destroy(new Error(`redis did not answer within ${timeoutMs} ms`)),
    );
    connection.on('error', reject);
    connection.on('data', (chunk: Buffer) => {
      reply += chunk.toString();
      if (reply.endsWith('\r\n')) {
        connection.end();
        resolve(reply);
      }
    });
    connection.write(`${command}\r\n`);
  });
}
