// A full default `kennel check` of a generated 600-operation document against `kennel serve` of the
// same document, timed spawn to exit as a CI job would see it (issue 20: <= 30 s on 2 cores, with
// the same findings). The document is document-scale.js's single-file one (OpenAPI 3.0, ~3 MB).
// What the run found is kept as counts and a digest of every case that did not pass, so a change
// that makes the check faster can show it still finds the same things.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { writeLarge } from '../document-scale.js';
import { freePort, startChild, stopChild, waitUntilAnswering } from './children.js';

/** Longest a run may take before it is stopped and reported as such (the target is 30 s). */
const RUN_LIMIT_MS = 10 * 60_000;

/** Spawns `kennel check` and resolves {ms, code, output}; stops it after RUN_LIMIT_MS. */
function runCheck(bin, args, cwd) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(bin, ['check', ...args], { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const keep = (chunk) => (output = (output + chunk).slice(-8192));
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    const timer = setTimeout(() => child.kill('SIGKILL'), RUN_LIMIT_MS);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      resolve({ ms: performance.now() - started, code, signal, output });
    });
  });
}

/** Counts and a digest of the cases that did not pass, from a `--json` report. */
export function findingsOf(report) {
  const notPassed = report.cases
    .filter((entry) => entry.status !== 'passed' && entry.status !== 'skipped')
    .map((entry) => `${entry.status} ${entry.check} ${entry.method} ${entry.path} ${entry.failureCount}`)
    .sort();
  const statuses = {};
  for (const entry of report.cases) statuses[entry.status] = (statuses[entry.status] ?? 0) + 1;
  return {
    errors: report.errors,
    warnings: report.warnings,
    failures: report.failureCount,
    cases: statuses,
    requests: report.requests,
    exitCode: report.exitCode,
    digest: createHash('sha256').update(notPassed.join('\n')).digest('hex').slice(0, 16),
  };
}

/**
 * Generates the document, serves it, checks it; resolves {seconds, operations, findings, sameAsLast}
 * or {error}. `last` is the previous run's result (from .bench/results.json), to say whether the
 * findings changed.
 */
export async function timeCheckAtScale({ bin, cwd, apiKey, log, last }) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'kennel-check-scale-'));
  let server;
  try {
    const document = writeLarge(dir);
    const port = await freePort();
    server = startChild('kennel-scale', bin, [
      ...['serve', document, '--port', String(port), '--api-key', apiKey, '--log-level', 'warn'],
    ]);
    const origin = `http://127.0.0.1:${port}`;
    await waitUntilAnswering(server, `${origin}/__kennel/health`, {}, { timeoutMs: 120_000 });
    const reportFile = path.join(dir, 'report.json');
    const args = ['--spec', document, '--base-url', `${origin}/v1`, '--api-key', apiKey, '--seed', '1'];
    const run = await runCheck(bin, [...args, '--json', reportFile, '--quiet'], cwd);
    if (run.code !== 0 && run.code !== 1)
      return { error: `kennel check exited ${run.code ?? run.signal}:\n${run.output.slice(-2000)}` };
    const report = JSON.parse(readFileSync(reportFile, 'utf8'));
    const findings = findingsOf(report);
    const sameAsLast = last?.findings?.digest === undefined ? undefined : last.findings.digest === findings.digest;
    log(
      `kennel check at scale: ${(run.ms / 1000).toFixed(1)} s, ${findings.requests} requests, ${findings.errors} errors, ${findings.warnings} warnings (findings ${findings.digest})`,
    );
    return { seconds: run.ms / 1000, operations: report.operations.length, findings, sameAsLast };
  } catch (error) {
    return { error: error.message };
  } finally {
    if (server) await stopChild(server);
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * The bench's step: left out of --quick (the full check of 600 operations takes minutes today);
 * otherwise timed and compared with the findings of the last run recorded in `benchDir`.
 */
export async function checkAtScale(quick, { bin, cwd, benchDir, apiKey, log }) {
  if (quick) return { skip: 'left out by --quick (a full check of 600 operations takes a while)' };
  log('kennel check at scale: a generated 600-operation document against kennel serve of it…');
  let last;
  try {
    last = JSON.parse(readFileSync(path.join(benchDir, 'results.json'), 'utf8')).checkAtScale;
  } catch {
    last = undefined;
  }
  return timeCheckAtScale({ bin, cwd, apiKey, log, last });
}
