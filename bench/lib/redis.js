// The Redis store's row of `npm run bench`: a redis-server of the bench's own, on a Unix socket in
// .bench/ (no TCP port to choose or clash), with no persistence; skipped without redis-server.
import { existsSync, rmSync } from 'node:fs';
import { createConnection } from 'node:net';
import path from 'node:path';
import { startChild, stopChild } from './children.js';

const REDIS_SERVER = '/usr/bin/redis-server';

function ping(socket) {
  return new Promise((resolve) => {
    const connection = createConnection(socket);
    connection.setTimeout(1000, () => connection.destroy());
    connection.on('error', () => resolve(false));
    connection.on('close', () => resolve(false));
    connection.on('data', (chunk) => {
      resolve(chunk.toString().startsWith('+PONG'));
      connection.end();
    });
    connection.write('PING\r\n');
  });
}

/**
 * Starts redis-server for the bench: {url, socket, pid, stop} or {skip: reason}. With `debug`,
 * `DEBUG SLEEP` is allowed on the socket (the reliability suite makes a slow Redis with it).
 */
export async function startBenchRedis(benchDir, { debug = false } = {}) {
  if (!existsSync(REDIS_SERVER)) return { skip: 'no redis-server (apt-get install redis-server)' };
  const socket = path.join(benchDir, 'redis.sock');
  rmSync(socket, { force: true });
  const args = ['--port', '0', '--unixsocket', socket, '--save', '', '--appendonly', 'no', '--dir', benchDir];
  if (debug) args.push('--enable-debug-command', 'local');
  const handle = startChild('redis-server', REDIS_SERVER, args);
  const started = Date.now();
  while (!(await ping(socket))) {
    if (handle.exitInfo || Date.now() - started > 10_000) {
      await stopChild(handle);
      return { skip: `redis-server did not start: ${handle.output() || 'no output'}` };
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return { url: `unix://${socket}`, socket, pid: handle.pid, stop: () => stopChild(handle) };
}
