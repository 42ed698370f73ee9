// Servers under test run as child processes, each in its own process group so that stopping one
// also stops anything it forked. Every child is tracked until it exits; killAll() is synchronous so
// it can run from 'exit' and signal handlers.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';

const live = new Set();
const TAIL_BYTES = 4096;

/** A free TCP port on 127.0.0.1 (closed again before the child binds it). */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/**
 * A promise of how `child` ended ({code, signal}, or {error} when it could not start), also kept
 * as `handle.exitInfo`; `live` forgets the handle then, and `note` hears why a spawn failed.
 */
export function exitOf(child, handle, live, note) {
  return new Promise((resolve) => {
    child.once('error', (error) => {
      note(`spawn failed: ${error.message}`);
      handle.exitInfo = { code: null, signal: null, error: error.message };
      live.delete(handle);
      resolve(handle.exitInfo);
    });
    child.once('exit', (code, signal) => {
      handle.exitInfo = { code, signal };
      live.delete(handle);
      resolve(handle.exitInfo);
    });
  });
}

/**
 * Starts `command args` detached (own process group) with piped output; returns a handle with
 * `pid`, `exited` (a promise of {code, signal}), `output()` (the last few KB of stdout+stderr)
 * and `stop()`.
 */
export function startChild(name, command, args, options = {}) {
  const startedAt = performance.now();
  const child = spawn(command, args, {
    cwd: options.cwd,
    env: { ...process.env, ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let tail = '';
  const keep = (chunk) => {
    tail = (tail + chunk.toString('utf8')).slice(-TAIL_BYTES);
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  const handle = {
    name,
    pid: child.pid,
    startedAt,
    exitInfo: undefined,
    output: () => tail.trim(),
    exited: undefined,
    stop: () => stopChild(handle),
  };
  handle.exited = exitOf(child, handle, live, (message) => keep(`${message}\n`));
  if (child.pid !== undefined) live.add(handle);
  return handle;
}

function signalGroup(handle, signal) {
  try {
    process.kill(-handle.pid, signal);
  } catch {
    try {
      process.kill(handle.pid, signal);
    } catch {
      // already gone
    }
  }
}

/** SIGTERM, then SIGKILL after `graceMs`; resolves once the child has exited. */
export async function stopChild(handle, graceMs = 3000) {
  if (handle.exitInfo) return handle.exitInfo;
  signalGroup(handle, 'SIGTERM');
  const timer = setTimeout(() => signalGroup(handle, 'SIGKILL'), graceMs);
  const info = await handle.exited;
  clearTimeout(timer);
  // Anything the child forked into its group goes too.
  signalGroup(handle, 'SIGKILL');
  return info;
}

/** Synchronously kills every child still running (for exit, error and signal paths). */
export function killAll(signal = 'SIGKILL') {
  for (const handle of live) signalGroup(handle, signal);
}

export function liveCount() {
  return live.size;
}

/** One HTTP request; resolves {status, headers, body} or rejects on a connection error. */
export function request(url, { method = 'GET', headers = {}, body, timeoutMs = 5000 } = {}) {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method, headers, agent: false, timeout: timeoutMs }, (res) => {
      const chunks = [];
      res.on('data', (chunk) => chunks.push(chunk));
      res.on('end', () =>
        resolve({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }),
      );
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new Error(`timed out after ${timeoutMs} ms`)));
    req.on('error', reject);
    req.end(body);
  });
}

/**
 * Polls `url` until it answers 200 (connection refused and non-200 answers are retried), the
 * child exits, or `timeoutMs` passes. Resolves {ms, response} where ms counts from the spawn.
 */
export async function waitUntilAnswering(handle, url, headers, { timeoutMs = 30_000, intervalMs = 10 } = {}) {
  const deadline = performance.now() + timeoutMs;
  let last = 'no answer yet';
  while (performance.now() < deadline) {
    if (handle.exitInfo) {
      const { code, signal } = handle.exitInfo;
      throw new Error(
        `${handle.name} exited (code ${code}, signal ${signal}) before answering ${url}; its output:\n${handle.output() || '(none)'}`,
      );
    }
    try {
      const response = await request(url, { headers, timeoutMs: 2000 });
      if (response.status === 200) return { ms: performance.now() - handle.startedAt, response };
      last = `HTTP ${response.status}: ${response.body.slice(0, 200)}`;
    } catch (error) {
      last = error.code ?? error.message;
    }
    await sleep(intervalMs);
  }
  throw new Error(
    `${handle.name} did not answer 200 on ${url} within ${timeoutMs / 1000} s (last: ${last}); its output:\n${handle.output() || '(none)'}`,
  );
}

/** VmRSS and VmHWM of `pid` in MB (from /proc/<pid>/status), or undefined off Linux. */
export function memoryOf(pid) {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const field = (name) => {
      const match = new RegExp(`^${name}:\\s+(\\d+)\\s+kB`, 'm').exec(status);
      return match ? Number(match[1]) / 1024 : undefined;
    };
    return { rssMb: field('VmRSS'), peakRssMb: field('VmHWM') };
  } catch {
    return undefined;
  }
}
