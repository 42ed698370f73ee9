// Self-consistency over generated documents: for each seed, a random valid OpenAPI document
// (test/generated/document-generator.ts) is served with startMock and checked with runContract
// (compiled dist/: `npm run build` first). A mock and a checker that read a document alike agree,
// so every error finding, crash or refused document is a disagreement. They are printed grouped
// by check and title pattern, each with the smallest document (seed and generator features) that
// shows it, and the one command that shows it again.
//
//   npm run bench:consistency -- [--seeds N] [--from S] [--features LIST] [--version 3.0|3.1]
//                                [--seed S] [--keep DIR] [--no-shrink] [--json FILE]
//
// Exit code 0 when every document agrees, 1 when some disagree, 2 when the bench could not run.
import './lib/typescript-tests.js';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';

const USAGE = `usage: npm run bench:consistency -- [options]
  --seeds N         documents to generate (default 100)
  --from S          first seed (default 1)
  --seed S          only this seed (prints its findings in full)
  --features LIST   the generator features a document may use: all (default), none, a,b,c or all,-a,-b
  --version V       only OpenAPI 3.0 or 3.1 (default: both)
  --keep DIR        write the generated documents to DIR and leave them there
  --no-shrink       report the smallest document seen, without switching features off
  --json FILE       write the groups as JSON too
  --list-features   print the generator's features and what each brings`;

const { generateDocument } = await import('../test/generated/document-generator.ts');
const { checkGenerated } = await import('../test/generated/consistency-harness.ts');
const { sweep, shrink, reproduction } = await import('../test/generated/consistency-sweep.ts');
const { FEATURES, parseFeatures } = await import('../test/generated/features.ts');
const kennel = {
  startMock: (await import('../dist/serve/server.js')).startMock,
  runContract: (await import('../dist/contract/run/runner.js')).runContract,
  loadDocument: (await import('../dist/openapi/load.js')).loadDocument,
};

/**
 * Runs the long count for `npm run bench`: how many generated documents serve and check without a
 * disagreement. It starts past the quick count's seeds (1-24, in `npm test`), so the two add up.
 */
export async function timeSelfConsistency({ seeds = 100, from = 25, log = () => {} } = {}) {
  const directory = mkdtempSync(path.join(os.tmpdir(), 'kennel-consistency-'));
  const started = performance.now();
  try {
    const list = Array.from({ length: seeds }, (_, index) => from + index);
    const result = await sweep(kennel, { seeds: list, features: parseFeatures('all'), directory });
    const agreeing = result.outcomes.filter(agrees).length;
    log(`self-consistency: ${agreeing}/${seeds} generated documents agree`);
    return { seeds, agreeing, groups: result.groups.map(plainGroup), seconds: (performance.now() - started) / 1000 };
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
}

const agrees = (outcome) =>
  !outcome.invalidDocument && outcome.crashes.length === 0 && outcome.disagreements.length === 0;

const plainGroup = (group) => ({
  key: group.key,
  example: group.example,
  seeds: group.seeds,
  operations: [...group.operations],
  smallest: group.smallest,
  reproduce: reproduction(group),
});

function options() {
  const { values } = parseArgs({
    options: {
      seeds: { type: 'string', default: '100' },
      from: { type: 'string', default: '1' },
      seed: { type: 'string' },
      features: { type: 'string', default: 'all' },
      version: { type: 'string' },
      keep: { type: 'string' },
      'no-shrink': { type: 'boolean', default: false },
      json: { type: 'string' },
      'list-features': { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  const count = (name) => {
    const value = Number(values[name]);
    if (!Number.isInteger(value) || value < 0)
      throw new Error(`--${name} must be a whole number, not "${values[name]}"`);
    return value;
  };
  if (values.version !== undefined && !['3.0', '3.1'].includes(values.version))
    throw new Error(`--version must be 3.0 or 3.1, not "${values.version}"`);
  const from = count('from');
  return {
    help: values.help,
    listFeatures: values['list-features'],
    seeds:
      values.seed !== undefined ? [count('seed')] : Array.from({ length: count('seeds') }, (_, index) => from + index),
    single: values.seed !== undefined,
    features: parseFeatures(values.features),
    versions: values.version ? [values.version] : undefined,
    keep: values.keep,
    shrink: !values['no-shrink'],
    json: values.json,
  };
}

async function showOne(seed, settings, directory) {
  const generated = generateDocument(seed, { features: settings.features, versions: settings.versions });
  const outcome = await checkGenerated(kennel, generated, directory);
  console.log(`seed ${seed}, OpenAPI ${generated.version}, features: ${generated.features.join(',') || 'none'}`);
  console.log(`document: ${outcome.file}${settings.keep ? '' : ' (removed at exit: --keep DIR to keep it)'}`);
  if (outcome.invalidDocument) console.log(`invalid document: ${outcome.invalidDocument}`);
  for (const crash of outcome.crashes) console.log(`crash: ${crash}`);
  for (const found of outcome.disagreements) console.log(`  ${found.check}  ${found.operation}  ${found.title}`);
  console.log(
    agrees(outcome) ? 'agrees' : `disagrees (exit ${outcome.exitCode ?? '-'}, ${outcome.requests ?? 0} requests)`,
  );
  return agrees(outcome);
}

async function main() {
  const settings = options();
  if (settings.help || settings.listFeatures) {
    console.log(
      settings.help
        ? USAGE
        : Object.entries(FEATURES)
            .map(([name, text]) => `${name.padEnd(22)} ${text}`)
            .join('\n'),
    );
    return 0;
  }
  const directory = settings.keep ?? mkdtempSync(path.join(os.tmpdir(), 'kennel-consistency-'));
  if (settings.keep) mkdirSync(directory, { recursive: true });
  try {
    if (settings.single) return (await showOne(settings.seeds[0], settings, directory)) ? 0 : 1;
    return await sweepAndReport(settings, directory);
  } finally {
    if (!settings.keep) rmSync(directory, { recursive: true, force: true });
  }
}

async function sweepAndReport(settings, directory) {
  const started = performance.now();
  const result = await sweep(kennel, {
    seeds: settings.seeds,
    features: settings.features,
    versions: settings.versions,
    directory,
    onSeed: (outcome) => process.stderr.write(agrees(outcome) ? '.' : 'x'),
  });
  process.stderr.write('\n');
  const cache = new Map();
  if (settings.shrink) for (const group of result.groups) await shrink(kennel, group, directory, cache);
  const agreeing = result.outcomes.filter(agrees).length;
  for (const group of result.groups) {
    const { features } = group.smallest;
    console.log(`\n${group.seeds.length} document(s)  ${group.key}`);
    console.log(`  e.g.      ${group.example.slice(0, 300)}`);
    console.log(`  on        ${[...group.operations].slice(0, 4).join(', ')}`);
    console.log(`  seeds     ${group.seeds.slice(0, 12).join(' ')}${group.seeds.length > 12 ? ' …' : ''}`);
    console.log(`  needs     ${features.join(', ') || '(no feature)'}`);
    console.log(`  reproduce ${reproduction(group)}`);
  }
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  console.log(
    `\nself-consistent ${agreeing}/${result.outcomes.length} generated documents, ${result.groups.length} kinds of disagreement (${seconds} s)`,
  );
  if (settings.json)
    writeFileSync(
      settings.json,
      `${JSON.stringify({ agreeing, documents: result.outcomes.length, groups: result.groups.map(plainGroup) }, null, 2)}\n`,
    );
  return agreeing === result.outcomes.length ? 0 : 1;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  main().then(
    (code) => process.exit(code),
    (error) => {
      console.error(`bench:consistency: ${error.message}\n${USAGE}`);
      process.exit(2);
    },
  );
}
