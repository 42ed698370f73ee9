// Times `kennel scenario run scenarios/` as a QA engineer or CI job runs it: spawn to exit.
import { spawn } from 'node:child_process';
import { median } from './report.js';

function timeRun(bin, cwd) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(bin, ['scenario', 'run', 'scenarios/'], { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('error', reject);
    child.on('exit', (code) => resolve({ ms: performance.now() - started, code, output }));
  });
}

/** `runs` timed runs of the scenario library; resolves {medianMs, samplesMs, scenarios, virtual} or {error}. */
export async function timeScenarioRuns({ bin, cwd, runs, log }) {
  const samples = [];
  let last;
  for (let index = 0; index < runs; index += 1) {
    last = await timeRun(bin, cwd);
    if (last.code !== 0) return { error: `kennel scenario run exited ${last.code}:\n${last.output.slice(-2000)}` };
    samples.push(last.ms);
    log(`kennel scenario run ${index + 1}/${runs}: ${Math.round(last.ms)} ms`);
  }
  const passed = /(\d+) of (\d+) scenarios passed/.exec(last.output);
  const virtual = /\n([^\n]+) of virtual time/.exec(last.output)?.[1];
  return { medianMs: median(samples), samplesMs: samples, scenarios: passed ? Number(passed[2]) : undefined, virtual };
}
