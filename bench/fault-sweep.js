// npm run bench:faults: how many generic faults kennel check catches on documents nobody wrote a
// faulty server for. For each document, kennel serve of it is the correct deployment; a proxy
// (bench/lib/fault-proxy.js) puts one fault at a time in front of it. As bench:foreign scores: a
// fault is *caught* when its run has an error finding (check, operation, normalised title) that
// the run through the fault-free proxy does not have; *not triggered* when the proxy never had
// occasion to apply it (no DELETE in the document, no limit parameter…). The matrix shows where
// kennel check is blind on unseen APIs; the checks that caught each fault say whether it was the
// one expected. Every run (the reference's and each fault's) gets a fresh kennel serve: a store
// filled by earlier runs would refuse creates and look like a catch.
//
//   npm run bench:faults [-- DOC...] [--fault NAME]... [--json FILE] [--verbose]
//   (default documents: every document of ../shared/corpus when it exists, else spec/petstore.yaml)
//
// Exit code 0 (it is a report); 2 when the measurement itself could not run.
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import './lib/typescript-tests.js';
import { documentView } from './lib/fault-document.js';
import { FAULTS, startFaultProxy } from './lib/fault-proxy.js';
import { table } from './lib/report.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const CORPUS = path.resolve(ROOT, '..', 'shared', 'corpus');
const KEY = 'sweep-key';
const SEED = 7;
const USAGE = `usage: npm run bench:faults [-- DOC...] [options]
  --fault NAME      only this fault (repeatable): ${Object.keys(FAULTS).join(', ')}
  --json FILE       also write the matrix as JSON (default .bench/faults.json)
  --verbose         the new findings of every caught fault, the exchanges a missed one changed
  -h, --help        this text`;

const log = (message) => process.stdout.write(`${message}\n`);

function options() {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      fault: { type: 'string', multiple: true },
      json: { type: 'string', default: path.join(ROOT, '.bench', 'faults.json') },
      verbose: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help) {
    log(USAGE);
    process.exit(0);
  }
  for (const fault of values.fault ?? []) if (!(fault in FAULTS)) throw new Error(`no fault named ${fault}\n${USAGE}`);
  const documents = positionals.length > 0 ? positionals.map((doc) => path.resolve(doc)) : defaultDocuments();
  return { ...values, faults: values.fault ?? Object.keys(FAULTS), documents };
}

function defaultDocuments() {
  if (!existsSync(CORPUS)) return [path.join(ROOT, 'spec', 'petstore.yaml')];
  return readdirSync(CORPUS)
    .filter((name) => /\.(ya?ml|json)$/.test(name))
    .map((name) => path.join(CORPUS, name));
}

/** One run of kennel check through the proxy, against a fresh deployment: no run sees another's data. */
async function checkThrough(tools, document, fault) {
  const { startMock, runContract, errorFindings, view } = tools;
  const mock = await startMock({ specPath: document, port: 0, apiKeys: [KEY], world: false });
  try {
    const proxy = await startFaultProxy(mock.url, fault, KEY, view);
    try {
      const summary = await runContract({ baseUrl: proxy.url, apiKey: KEY, specPath: document, seed: SEED });
      return { findings: errorFindings(summary), applied: proxy.applied(), appliedTo: proxy.appliedTo() };
    } finally {
      await proxy.close();
    }
  } finally {
    await mock.close();
  }
}

function verdictOf(result) {
  if (result.error) return 'crash';
  if (result.applied === 0) return 'n/a';
  return result.caught ? 'caught' : 'MISSED';
}

async function sweepDocument(tools, document, faults) {
  const { loadDocument, listOperations } = tools;
  const loaded = await loadDocument(document);
  const view = documentView(listOperations(loaded.dereferenced), loaded.basePath);
  const reference = await checkThrough({ ...tools, view }, document, undefined);
  const known = new Set(reference.findings);
  const results = {};
  for (const fault of faults) {
    try {
      const run = await checkThrough({ ...tools, view }, document, fault);
      const fresh = run.findings.filter((finding) => !known.has(finding));
      const checks = [...new Set(fresh.map((finding) => finding.split(' ')[0]))];
      const { applied, appliedTo } = run;
      results[fault] = { applied, appliedTo, caught: fresh.length > 0, checks, findings: fresh };
    } catch (error) {
      results[fault] = { error: error instanceof Error ? error.message : String(error) };
    }
  }
  return { document: path.basename(document), referenceErrors: reference.findings.length, results };
}

function printMatrix(rows, faults) {
  const columns = [{ title: 'document' }, ...faults.map((fault) => ({ title: fault }))];
  log(
    table(
      columns,
      rows.map((row) => [row.document, ...faults.map((fault) => verdictOf(row.results[fault]))]),
    ),
  );
  log('');
  for (const fault of faults) {
    const applicable = rows.filter((row) => verdictOf(row.results[fault]) !== 'n/a');
    const caught = applicable.filter((row) => row.results[fault].caught);
    const by = new Map();
    for (const row of caught) for (const check of row.results[fault].checks) by.set(check, (by.get(check) ?? 0) + 1);
    const checks = [...by].map(([check, count]) => `${check} ${count}`).join(', ');
    log(
      `${fault}: caught ${caught.length}/${applicable.length} (${FAULTS[fault].wrong})${checks ? `; by ${checks}` : ''}`,
    );
  }
}

async function main() {
  const { documents, faults, json, verbose } = options();
  const dist = (file) => path.join(ROOT, 'dist', file);
  if (!existsSync(dist('contract/run/runner.js'))) throw new Error('dist/ is missing: run npm run build first');
  const { runContract } = await import(dist('contract/run/runner.js'));
  const { startMock } = await import(dist('serve/server.js'));
  const { loadDocument } = await import(dist('openapi/load.js'));
  const { listOperations } = await import(dist('openapi/operations.js'));
  const { errorFindings } = await import('../test/contract/foreign/score.ts');
  const rows = [];
  for (const document of documents) {
    const started = Date.now();
    try {
      const tools = { startMock, runContract, errorFindings, loadDocument, listOperations };
      const row = await sweepDocument(tools, document, faults);
      rows.push(row);
      const line = faults.map((fault) => `${fault} ${verdictOf(row.results[fault])}`).join(', ');
      log(`${row.document} (${((Date.now() - started) / 1000).toFixed(1)} s): ${line}`);
      if (verbose)
        for (const fault of faults) {
          const result = row.results[fault];
          for (const finding of result.findings ?? []) log(`    ${fault}: ${finding}`);
          if (verdictOf(result) === 'MISSED') log(`    ${fault} MISSED, applied to: ${result.appliedTo.join(', ')}`);
        }
    } catch (error) {
      log(`${path.basename(document)}: not measured (${error instanceof Error ? error.message : String(error)})`);
    }
  }
  log('');
  printMatrix(rows, faults);
  mkdirSync(path.dirname(json), { recursive: true });
  writeFileSync(json, `${JSON.stringify(rows, null, 2)}\n`);
}

main().catch((error) => {
  process.stderr.write(`bench:faults: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(2);
});
