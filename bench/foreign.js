// npm run bench:foreign: kennel check measured on foreign APIs it has never seen, as the product
// team scores it. For each API (test/contract/foreign/): the correct deployments (a reference
// server and a variant) should give no error finding; each single-fault deployment is *caught*
// when its run has an error finding (check, operation, normalised title) that the reference run
// does not have. Every run is a full default `kennel check` (dist/, in process) on a loopback port.
//
//   npm run bench:foreign [-- --api stagedoor|museum|cardwall|clinic] [--concurrency N] [--json FILE] [--verbose]
//
// Exit code 0 (it is a report, whatever the score); 2 when the measurement itself could not run.
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import './lib/typescript-tests.js';
import { table } from './lib/report.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const RUNNER = path.join(ROOT, 'dist', 'contract', 'run', 'runner.js');
const USAGE = `usage: npm run bench:foreign [-- options]
  --api NAME        only this API (stagedoor, museum, cardwall, clinic); default: all
  --concurrency N   deployments checked at once (default 3)
  --json FILE       also write the scores as JSON (default .bench/foreign.json)
  --verbose         every finding of every fault, not only the first
  -h, --help        this text`;

const log = (message) => process.stdout.write(`${message}\n`);

function options() {
  const { values } = parseArgs({
    options: {
      api: { type: 'string' },
      concurrency: { type: 'string', default: '3' },
      json: { type: 'string', default: path.join(ROOT, '.bench', 'foreign.json') },
      verbose: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help) {
    log(USAGE);
    process.exit(0);
  }
  const concurrency = Number(values.concurrency);
  if (!Number.isInteger(concurrency) || concurrency < 1)
    throw new Error(`--concurrency must be a positive integer\n${USAGE}`);
  return { ...values, concurrency };
}

async function foreignApis(only) {
  const { STAGEDOOR } = await import('../test/contract/foreign/stagedoor/api.ts');
  const { MUSEUM } = await import('../test/contract/foreign/museum/api.ts');
  const { CARDWALL } = await import('../test/contract/foreign/cardwall/api.ts');
  const { CLINIC } = await import('../test/contract/foreign/clinic/api.ts');
  const apis = [STAGEDOOR, MUSEUM, CARDWALL, CLINIC].filter((api) => only === undefined || api.name === only);
  if (apis.length === 0) throw new Error(`no foreign API named ${only} (stagedoor, museum, cardwall, clinic)`);
  return apis;
}

function printCorrect(score) {
  for (const deployment of score.correct) {
    const verdict =
      deployment.errors.length === 0 ? 'passes' : `FAILS with ${deployment.errors.length} error finding(s)`;
    log(`  correct ${deployment.name}: ${verdict} (${deployment.requests} requests, ${deployment.durationMs} ms)`);
    for (const error of deployment.errors) log(`      false alarm: ${error}`);
  }
}

function printFaults(score, verbose) {
  for (const { fault, caught, newFindings } of score.faults) {
    const drift =
      caught === fault.caughtToday
        ? ''
        : caught
          ? '  (newly caught: flip caughtToday)'
          : '  (REGRESSED: declared caught)';
    const why = caught
      ? verbose
        ? newFindings.join('\n        ')
        : newFindings[0]
      : `waits for ${fault.waitsFor ?? '?'}`;
    log(`  ${caught ? 'caught' : 'missed'}  ${fault.family.padEnd(10)} ${fault.name.padEnd(34)} ${why}${drift}`);
  }
}

function familyTable(scores) {
  const families = [...new Set(scores.flatMap((score) => score.faults.map(({ fault }) => fault.family)))];
  const count = (score, family) => {
    const faults = score.faults.filter(({ fault }) => fault.family === family);
    return faults.length === 0 ? '-' : `${faults.filter(({ caught }) => caught).length}/${faults.length}`;
  };
  const columns = [{ title: 'family' }, ...scores.map((score) => ({ title: score.api, right: true }))];
  return table(
    columns,
    families.map((family) => [family, ...scores.map((score) => count(score, family))]),
  );
}

async function main() {
  const { api: only, concurrency, json, verbose } = options();
  if (!existsSync(RUNNER)) throw new Error(`${path.relative(ROOT, RUNNER)} is missing: run npm run build first`);
  const { runContract } = await import(RUNNER);
  const { scoreApi } = await import('../test/contract/foreign/score.ts');
  const scores = [];
  for (const api of await foreignApis(only)) {
    const started = Date.now();
    const score = await scoreApi(api, runContract, { concurrency });
    log(`\n${api.name} (${path.relative(ROOT, api.document)}), ${((Date.now() - started) / 1000).toFixed(1)} s`);
    printCorrect(score);
    printFaults(score, verbose);
    scores.push(score);
  }
  log(`\n${familyTable(scores)}\n`);
  for (const score of scores) {
    const caught = score.faults.filter((fault) => fault.caught).length;
    const correct = score.correct.filter((deployment) => deployment.errors.length === 0).length;
    log(
      `${score.api}: caught ${caught}/${score.faults.length}; correct deployments passing ${correct}/${score.correct.length}`,
    );
  }
  mkdirSync(path.dirname(json), { recursive: true });
  writeFileSync(json, `${JSON.stringify(scores, null, 2)}\n`);
}

main().catch((error) => {
  process.stderr.write(`bench:foreign: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(2);
});
