// The harness issue 20 is judged with: each server under load on one core and the load generator
// on the other, so that neither takes the other's CPU and V8's helper threads share the server's
// core (they do in production on a small container). Linux's taskset does the pinning; without it,
// or on one core, nothing is pinned and the bench says so.
import { spawnSync } from 'node:child_process';
import os from 'node:os';

/** Why servers cannot be pinned here, or undefined when they can. */
export function pinningUnavailable() {
  if (process.platform !== 'linux') return 'not Linux';
  if (os.cpus().length < 2) return 'one core';
  const probe = spawnSync('taskset', ['-p', String(process.pid)], { stdio: 'ignore' });
  return probe.status === 0 ? undefined : 'no taskset (util-linux)';
}

/** `[command, args]` as it is, or when `pin` run on core 0. */
export function onCoreZero(pin, [command, args]) {
  return pin ? ['taskset', ['-c', '0', command, ...args]] : [command, args];
}

/**
 * Moves this process, every thread of it (the load generator runs here), to core 1; the function
 * it returns gives it every core back. Children started in between inherit core 1.
 */
export function pinSelf() {
  const move = (cores) =>
    spawnSync('taskset', ['-a', '-p', '-c', cores, String(process.pid)], { stdio: 'ignore' }).status === 0;
  move('1');
  return () => move(`0-${os.cpus().length - 1}`);
}
