// `npm test`: the build and the test suite, with the type-check, lint and format check running
// beside them. Vitest's workers spend much of their time waiting on sockets and child processes,
// so a core is often idle; the static checks (single-threaded, up to ~45 CPU s) fill those gaps
// at a lower priority instead of running first on one core while the other waits. The build and
// vitest print as they go; each other step's output is printed whole once all are done, then one
// line per step. The exit code is 0 only when every step passed. Arguments go to vitest
// (`npm test -- test/cli`).
//
//   node scripts/test.js [vitest arguments]
import { spawn } from 'node:child_process';
import { realpathSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** Below vitest's priority: its tests have deadlines, the static checks have none. */
const BACKGROUND_NICENESS = 10;
/**
 * `npm run lint`'s format check. Its cache (node_modules/.cache/prettier) is keyed on each file's
 * content and prettier's version and options, so a warm run re-reads only changed files (~1.5 CPU
 * s instead of ~14). ESLint's cache is not used: a type-aware finding depends on other files.
 */
const PRETTIER_CHECK = ['--check', '--cache', '--cache-strategy', 'content', '.'];
/** The exit code a shell gives a command it could not start. */
const COULD_NOT_START = 127;

/** A package's command-line entry, run with this Node rather than whichever `node` is on PATH. */
function bin(name) {
  return realpathSync(path.join(ROOT, 'node_modules', '.bin', name));
}

/**
 * Runs the lanes side by side, each lane's steps one after another (a lane stops at its first
 * failing step), and resolves with every step's outcome, in order. A `live` step prints straight
 * to this process's output; the others' output is kept and printed whole, under a heading, once
 * every lane has ended, followed by a one-line verdict per step.
 */
export async function runLanes(lanes, out = process.stdout) {
  const started = Date.now();
  const children = new Set();
  const stop = (signal) => children.forEach((child) => child.kill(signal));
  process.once('SIGINT', stop).once('SIGTERM', stop);
  const outcomes = (await Promise.all(lanes.map((lane) => runLane(lane, children)))).flat();
  process.off('SIGINT', stop).off('SIGTERM', stop);
  for (const outcome of outcomes) {
    if (!outcome.live && outcome.output.trim()) out.write(`\n── ${outcome.name} ──\n${outcome.output.trimEnd()}\n`);
  }
  out.write('\n');
  for (const outcome of outcomes) out.write(`${verdict(outcome)}\n`);
  out.write(`(${seconds(Date.now() - started)} in all)\n`);
  return outcomes;
}

async function runLane(steps, children) {
  const outcomes = [];
  for (const step of steps) {
    const failedBefore = outcomes.some((outcome) => !passed(outcome));
    outcomes.push(failedBefore ? skipped(step) : await runStep(step, children));
  }
  return outcomes;
}

export function passed(outcome) {
  return outcome.code === 0 && !outcome.signal && !outcome.skipped;
}

function skipped({ name, live = false }) {
  return { name, live, code: 1, signal: null, output: '', ms: 0, skipped: true };
}

function runStep({ name, command, args, live = false }, children) {
  const started = Date.now();
  const env = live || !process.stdout.isTTY ? process.env : { ...process.env, FORCE_COLOR: '1' };
  const stdio = live ? 'inherit' : 'pipe';
  const child = spawn(command, args, { cwd: ROOT, env, stdio: ['ignore', stdio, stdio] });
  children.add(child);
  if (!live) lowerPriority(child);
  let output = '';
  let couldNotStart = false;
  child.stdout?.on('data', (chunk) => (output += chunk));
  child.stderr?.on('data', (chunk) => (output += chunk));
  child.on('error', (error) => {
    couldNotStart = true;
    output += `${error.message}\n`;
  });
  return new Promise((resolve) => {
    child.on('close', (code, signal) => {
      children.delete(child);
      const exitCode = couldNotStart ? COULD_NOT_START : (code ?? 1);
      resolve({ name, live, code: exitCode, signal, output, ms: Date.now() - started, skipped: false });
    });
  });
}

function lowerPriority(child) {
  try {
    os.setPriority(child.pid, BACKGROUND_NICENESS);
  } catch {
    // Not allowed or not supported here: the step still runs, at the same priority as vitest.
  }
}

function verdict(outcome) {
  const { name, code, signal, ms } = outcome;
  if (outcome.skipped) return `✗ ${name}: not run (an earlier step failed)`;
  const how = signal ? `stopped by ${signal}` : code === 0 ? 'passed' : `failed (exit ${code})`;
  return `${passed(outcome) ? '✓' : '✗'} ${name}: ${how}, ${seconds(ms)}`;
}

function seconds(ms) {
  return `${(ms / 1000).toFixed(1)} s`;
}

/** `npm run <script>`, through the npm that runs this script when there is one. */
function npmRun(script) {
  const npm = process.env.npm_execpath;
  return npm ? { command: process.execPath, args: [npm, 'run', script] } : { command: 'npm', args: ['run', script] };
}

/** What `npm test` runs: the build then the suite, live; the static checks beside them. */
function testLanes(vitestArgs) {
  const node = process.execPath;
  return [
    [
      { name: 'build', ...npmRun('build'), live: true },
      { name: 'vitest', command: node, args: [bin('vitest'), 'run', ...vitestArgs], live: true },
    ],
    [{ name: 'typecheck and lint', command: node, args: [path.join(ROOT, 'scripts', 'typecheck-and-lint.js')] }],
    [{ name: 'prettier --check', command: node, args: [bin('prettier'), ...PRETTIER_CHECK] }],
  ];
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const outcomes = await runLanes(testLanes(process.argv.slice(2)));
  process.exitCode = outcomes.every(passed) ? 0 : 1;
}
