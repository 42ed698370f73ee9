// Times a full default `kennel check` run against a fresh local `kennel serve`: spawn to exit, as
// a CI job would see it. Each run gets its own server, so every run does the same work.
import { spawn } from 'node:child_process';
import { median } from './report.js';

/** Runs `bin check --base-url … --api-key … --seed 1` and resolves {ms, code, requests, output}. */
function timeCheck(bin, baseUrl, apiKey, cwd) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(bin, ['check', '--base-url', baseUrl, '--api-key', apiKey, '--seed', '1'], {
      cwd,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('error', reject);
    child.on('exit', (code) => {
      const requests = Number(/(\d+) requests in/.exec(output)?.[1] ?? Number.NaN);
      resolve({ ms: performance.now() - started, code, requests, output });
    });
  });
}

/**
 * `runs` timed check runs; `startServer()` must resolve {baseUrl, stop()}. Resolves
 * {medianMs, samplesMs, requests, exitCodes} or {error}.
 */
export async function timeContractRuns({ bin, cwd, apiKey, runs, startServer, log }) {
  const samples = [];
  let last;
  for (let index = 0; index < runs; index += 1) {
    const server = await startServer();
    try {
      last = await timeCheck(bin, server.baseUrl, apiKey, cwd);
    } finally {
      await server.stop();
    }
    if (last.code !== 0) return { error: `kennel check exited ${last.code}:\n${last.output.slice(-2000)}` };
    samples.push(last.ms);
    log(`kennel check run ${index + 1}/${runs}: ${Math.round(last.ms)} ms, ${last.requests} requests`);
  }
  return { medianMs: median(samples), samplesMs: samples, requests: last.requests };
}
