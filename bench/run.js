// npm run bench: kennel against a minimal Koa 3 + @koa/router baseline and Prism 5's static mock.
//
// Every server runs as a child process; autocannon loads them one at a time from this process
// (the machine has 2 cores: one for the load generator, one for the server). For each route the
// targets take turns round by round, and each row reports the median round. Absolute numbers vary
// a lot between runs and machines: compare the ratios of one run. It also times kennel check,
// the scenario library and large documents, and counts how many generated documents kennel check
// finds nothing in when run against kennel serve (bench/self-consistency.js, 100 seeds past npm test's 24).
//
//   npm run bench [-- --duration S] [--rounds N] [--connections N] [--quick] [--no-prism]
//
// Results also go to .bench/results.json. Exit code 0 even when a target is missed (it is a
// report); 2 when the benchmark itself could not run.
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { machineBusyCores, watchForeignCpu } from './lib/cpu.js';
import { freePort, killAll, memoryOf, request, startChild, stopChild, waitUntilAnswering } from './lib/children.js';
import { onCoreZero, pinningUnavailable, pinSelf } from './lib/pinning.js';
import { BenchError, options } from './lib/bench-options.js';
import { timeContractRuns } from './lib/contract-run.js';
import { timeScenarioRuns } from './lib/scenario-run.js';
import { timeNpxFirstCall } from './lib/npx-first-call.js';
import { timeDocumentScale } from './document-scale.js';
import { acceptanceChecks, acceptanceLines } from './lib/acceptance.js';
import { versions } from './lib/versions.js';
import { checkAtScale } from './lib/check-scale.js';
import { timeSelfConsistency } from './self-consistency.js';
import { runLoad, stopLoad } from './lib/load.js';
import { ensurePrism } from './lib/prism.js';
import { startBenchRedis } from './lib/redis.js';
import { formatFixed, formatInt, median, medianRound, ratio, table } from './lib/report.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const BENCH_DIR = path.join(ROOT, '.bench');
const KENNEL_BIN = path.join(ROOT, 'bin', 'kennel.js');
const BASELINE = path.join(ROOT, 'bench', 'baseline-server.js');
const SPEC = path.join(ROOT, 'spec', 'petstore.yaml');
const API_KEY = 'bench-key';
const AUTH = { authorization: `Bearer ${API_KEY}` };
const HOST = '127.0.0.1';
const LOAD_BUDGETS = ['--max-pets', '1000000', '--max-store-bytes', '2gb', '--max-total-bytes', '2gb'];
const CREATE_BODY = JSON.stringify({ name: 'Bench', categoryId: 1, status: 'available' });

/** Cores other processes may use during a round before the report calls the machine busy. */
const BUSY_CORES = 0.25;

const TARGETS = {
  getListRatioBaseline: 0.6,
  getListRatioPrism: 3,
  coldStartS: 1,
  /** The first `npx kennel --version` in a fresh clone after npm ci (npm's own start-up included). */
  npxFirstCallS: 1.5,
  rssMb: 150,
  contractRunS: 3,
  scenarioLibraryS: 2,
  /** Load + mock app + check plan of a 3 MB document, and of a 600-operation one split over files. */
  documentScaleS: 5,
};

const log = (message) => process.stderr.write(`${message}\n`);

// The load instance holds every pet one create round makes (the store is reset before each round):
// with the default 32 MB per store, creates past ~80,000 answered 507 store_full, not 201.
function kennelCommand(port, forLoad, extra = []) {
  const args = ['serve', '--port', String(port), '--api-key', API_KEY, '--log-level', 'warn', '--pets', '30'];
  return [KENNEL_BIN, [...args, ...extra, ...(forLoad ? LOAD_BUDGETS : [])]];
}

/** The servers: how to start each on a port and where its API lives. */
function targetDefinitions(prism, redis) {
  const targets = [
    {
      id: 'kennel',
      basePath: '/v1',
      // Spawned as an executable, like `npx kennel`, so the V8 flags of bin/kennel.js's shebang apply.
      command: (port, { forLoad }) => kennelCommand(port, forLoad),
      resetBetweenCreateRounds: true,
    },
    {
      // Every operation answered from the document alone (examples, or values generated from its
      // schemas), behind kennel's routing, auth and validation: what operations without state cost.
      id: 'kennel-stateless',
      basePath: '/v1',
      command: (port) => [
        KENNEL_BIN,
        ['serve', '--port', String(port), '--api-key', API_KEY, '--log-level', 'warn', '--stateless'],
      ],
    },
    ...(redis.url
      ? [
          {
            // The same kennel with its state in Redis (--store): what a replica sharing state costs.
            id: 'kennel-redis',
            basePath: '/v1',
            command: (port, { forLoad }) => kennelCommand(port, forLoad, ['--store', redis.url]),
            helperPids: [redis.pid],
            resetBetweenCreateRounds: true,
          },
        ]
      : []),
    {
      id: 'baseline',
      basePath: '/v1',
      command: (port) => [process.execPath, [BASELINE, '--port', String(port), '--api-key', API_KEY, '--host', HOST]],
    },
  ];
  if (prism.bin) {
    targets.push({
      id: 'prism',
      basePath: '', // Prism's CLI ignores the /v1 of the spec's servers and serves /pets.
      command: (port) => [
        process.execPath,
        [prism.bin, 'mock', SPEC, '--host', HOST, '--port', String(port), '-v', 'warn'],
      ],
      env: { SCARF_ANALYTICS: 'false' },
      optional: true,
    });
  }
  return targets;
}

const ROUTES = [
  { id: 'list', label: 'GET /v1/pets', method: 'GET', path: '/pets', expect: 200 },
  { id: 'get', label: 'GET /v1/pets/1', method: 'GET', path: '/pets/1', expect: 200 },
  {
    id: 'create',
    label: 'POST /v1/pets',
    method: 'POST',
    path: '/pets',
    expect: 201,
    body: CREATE_BODY,
    headers: { 'content-type': 'application/json' },
  },
];

function originOf(port) {
  return `http://${HOST}:${port}`;
}

/** Starts a target and waits until its list route answers 200 with a JSON array. */
async function startTarget(target, { forLoad, pin = false }) {
  const port = await freePort();
  const [command, args] = onCoreZero(pin, target.command(port, { forLoad }));
  const handle = startChild(target.id, command, args, { cwd: ROOT, env: target.env });
  const listUrl = `${originOf(port)}${target.basePath}/pets`;
  try {
    const { ms, response } = await waitUntilAnswering(handle, listUrl, AUTH, { timeoutMs: 60_000 });
    let list;
    try {
      list = JSON.parse(response.body);
    } catch {
      list = undefined;
    }
    if (!Array.isArray(list))
      throw new Error(`${target.id}: GET ${listUrl} answered 200 but not a JSON array: ${response.body.slice(0, 200)}`);
    return { handle, port, origin: originOf(port), coldStartMs: ms, listLength: list.length };
  } catch (error) {
    await stopChild(handle);
    throw error;
  }
}

async function coldStarts(targets, count) {
  const results = {};
  for (const target of targets) {
    const samples = [];
    try {
      for (let index = 0; index < count; index += 1) {
        const started = await startTarget(target, { forLoad: false });
        samples.push(started.coldStartMs);
        await stopChild(started.handle);
      }
    } catch (error) {
      if (!target.optional) throw new BenchError(`cold start of ${target.id} failed: ${error.message}`);
      log(
        `cold start: ${target.id} failed, skipping it${target.id === 'prism' ? ' (delete .bench/prism to reinstall it)' : ''}: ${error.message}`,
      );
      results[target.id] = { error: error.message };
      continue;
    }
    results[target.id] = {
      medianMs: median(samples),
      minMs: Math.min(...samples),
      maxMs: Math.max(...samples),
      samplesMs: samples,
    };
    log(
      `cold start: ${target.id} median ${formatInt(results[target.id].medianMs)} ms of ${samples.map((ms) => formatInt(ms)).join(', ')} ms`,
    );
  }
  return results;
}

async function resetKennel(running) {
  const response = await request(`${running.origin}/__kennel/reset`, { method: 'POST' });
  if (response.status !== 200)
    throw new BenchError(`kennel: POST /__kennel/reset answered ${response.status}: ${response.body.slice(0, 200)}`);
}

/** One request per route before loading it: the status must be the expected one. */
async function probeRoute(target, running, route) {
  const url = `${running.origin}${target.basePath}${route.path}`;
  const response = await request(url, {
    method: route.method,
    headers: { ...AUTH, ...route.headers },
    body: route.body,
  });
  if (response.status !== route.expect)
    throw new Error(
      `${target.id}: ${route.method} ${url} answered ${response.status}, expected ${route.expect}: ${response.body.slice(0, 200)}`,
    );
  return { url, bodyBytes: Buffer.byteLength(response.body) };
}

function unexpectedCount(statusCodes, expect) {
  return Object.entries(statusCodes).reduce((sum, [code, count]) => (Number(code) === expect ? sum : sum + count), 0);
}

function assertAlive(target, running) {
  if (!running.handle.exitInfo) return;
  const { code, signal } = running.handle.exitInfo;
  throw new Error(
    `${target.id} exited during the benchmark (code ${code}, signal ${signal}); its output:\n${running.handle.output() || '(none)'}`,
  );
}

async function loadAll(targets, running, opts) {
  const rows = {};
  const memory = {};
  const skipped = {};
  const active = (target) => running[target.id] && !skipped[target.id];
  const skip = (target, error) => {
    if (!target.optional) throw new BenchError(error.message);
    log(`${target.id}: skipping its remaining rows: ${error.message}`);
    skipped[target.id] = error.message;
  };
  for (const route of ROUTES) {
    rows[route.id] = {};
    const probes = {};
    for (const target of targets) {
      if (!active(target)) continue;
      try {
        probes[target.id] = await probeRoute(target, running[target.id], route);
        if (route.id === 'create' && target.resetBetweenCreateRounds) await resetKennel(running[target.id]);
      } catch (error) {
        skip(target, error);
      }
    }
    for (let round = 0; round < opts.rounds; round += 1) {
      // Rotate the order so no target always runs first or last in a round.
      const order = targets.map((_, index) => targets[(index + round) % targets.length]);
      for (const target of order) {
        if (!active(target) || !probes[target.id]) continue;
        const server = running[target.id];
        const row = (rows[route.id][target.id] ??= {
          target: target.id,
          route: route.label,
          url: probes[target.id].url,
          bodyBytes: probes[target.id].bodyBytes,
          rounds: [],
          warmup: undefined,
        });
        const load = {
          url: probes[target.id].url,
          method: route.method,
          headers: { ...AUTH, ...route.headers },
          body: route.body,
          connections: opts.connections,
        };
        try {
          if (round === 0 && opts.warmup > 0) {
            log(`[${route.label}] warm-up ${target.id} (${opts.warmup} s)`);
            row.warmup = await runLoad({ ...load, duration: opts.warmup });
            assertAlive(target, server);
          }
          if (route.id === 'create' && target.resetBetweenCreateRounds) await resetKennel(server);
          // A target's own helpers (the Redis row's redis-server) are part of what is measured, not load.
          const foreignCpu = watchForeignCpu([server.handle.pid, ...(target.helperPids ?? [])]);
          const result = await runLoad({ ...load, duration: opts.duration });
          result.otherCores = foreignCpu();
          assertAlive(target, server);
          result.unexpected = unexpectedCount(result.statusCodes, route.expect);
          row.rounds.push(result);
          const trouble =
            result.non2xx + result.errors + result.timeouts + result.unexpected > 0
              ? `  !! non-2xx ${result.non2xx}, errors ${result.errors}, timeouts ${result.timeouts}, status ${JSON.stringify(result.statusCodes)}`
              : '';
          const busy =
            result.otherCores > BUSY_CORES
              ? `  (other processes used ${formatFixed(result.otherCores)} cores meanwhile)`
              : '';
          log(
            `[${route.label}] round ${round + 1}/${opts.rounds} ${target.id.padEnd(12)} ${formatInt(result.reqPerSec).padStart(7)} req/s  p99 ${result.p99Ms} ms${trouble}${busy}`,
          );
          if (route.id === 'list') memory[target.id] = { afterRound: round + 1, ...memoryOf(server.handle.pid) };
        } catch (error) {
          if (error instanceof BenchError) throw error;
          skip(target, error);
        }
      }
    }
  }
  return { rows, memory, skipped };
}

function summarise(rows) {
  const summary = {};
  for (const route of ROUTES) {
    summary[route.id] = {};
    for (const [targetId, row] of Object.entries(rows[route.id] ?? {})) {
      if (row.rounds.length === 0) continue;
      const chosen = medianRound(row.rounds);
      const sum = (field) => row.rounds.reduce((total, round) => total + round[field], 0);
      const warm = row.warmup ?? { non2xx: 0, errors: 0, timeouts: 0 };
      const totals = {
        non2xx: sum('non2xx'),
        errors: sum('errors'),
        timeouts: sum('timeouts'),
        unexpected: sum('unexpected'),
      };
      summary[route.id][targetId] = {
        reqPerSec: chosen.reqPerSec,
        p99Ms: chosen.p99Ms,
        minReqPerSec: Math.min(...row.rounds.map((round) => round.reqPerSec)),
        maxReqPerSec: Math.max(...row.rounds.map((round) => round.reqPerSec)),
        bodyBytes: row.bodyBytes,
        otherCoresMax: Math.max(...row.rounds.map((round) => round.otherCores ?? 0)),
        ...totals,
        warmupNon2xx: warm.non2xx,
        warmupErrors: warm.errors + warm.timeouts,
        flagged:
          totals.non2xx +
            totals.errors +
            totals.timeouts +
            totals.unexpected +
            warm.non2xx +
            warm.errors +
            warm.timeouts >
          0,
      };
    }
    const kennel = summary[route.id].kennel;
    if (kennel) {
      kennel.vsBaseline = ratio(kennel.reqPerSec, summary[route.id].baseline?.reqPerSec);
      kennel.vsPrism = ratio(kennel.reqPerSec, summary[route.id].prism?.reqPerSec);
    }
    const redis = summary[route.id]['kennel-redis'];
    if (redis) redis.vsMemory = ratio(redis.reqPerSec, kennel?.reqPerSec);
  }
  return summary;
}

function loadTable(summary, targets) {
  const columns = [
    { title: 'route' },
    { title: 'target' },
    { title: 'req/s', right: true },
    { title: 'rounds min-max', right: true },
    { title: 'p99 ms', right: true },
    { title: 'non-2xx', right: true },
    { title: 'errors', right: true },
    { title: 'body B', right: true },
    { title: 'other CPU', right: true },
    { title: 'kennel/baseline', right: true },
    { title: 'kennel/prism', right: true },
    { title: '' },
  ];
  const rows = [];
  for (const route of ROUTES) {
    let first = true;
    for (const target of targets) {
      const row = summary[route.id][target.id];
      const label = first ? route.label : '';
      first = false;
      if (!row) {
        rows.push([label, target.id, 'skipped']);
        continue;
      }
      const isKennel = target.id === 'kennel';
      rows.push([
        label,
        target.id,
        formatInt(row.reqPerSec),
        `${formatInt(row.minReqPerSec)}-${formatInt(row.maxReqPerSec)}`,
        formatFixed(row.p99Ms, 0),
        formatInt(row.non2xx + row.warmupNon2xx),
        formatInt(row.errors + row.timeouts + row.warmupErrors),
        formatInt(row.bodyBytes),
        formatFixed(row.otherCoresMax),
        isKennel ? formatFixed(row.vsBaseline) : '',
        isKennel ? formatFixed(row.vsPrism) : '',
        row.flagged ? `!! ${describeTrouble(row)}` : '',
      ]);
    }
  }
  return table(columns, rows);
}

function describeTrouble(row) {
  const parts = [];
  if (row.non2xx) parts.push(`${row.non2xx} non-2xx`);
  if (row.unexpected && row.unexpected !== row.non2xx) parts.push(`${row.unexpected} not the expected status`);
  if (row.errors || row.timeouts) parts.push(`${row.errors} errors/${row.timeouts} timeouts`);
  if (row.warmupNon2xx || row.warmupErrors)
    parts.push(`warm-up: ${row.warmupNon2xx} non-2xx, ${row.warmupErrors} errors`);
  return parts.join(', ');
}

function checks(summary, cold, memory, prismSkipped, contract, scenarios, scale, consistency, npx) {
  const list = summary.list ?? {};
  const kennel = list.kennel;
  const results = [];
  const add = (name, value, pass, detail, skip) =>
    results.push({ name, value, status: skip ? 'SKIP' : pass ? 'PASS' : 'FAIL', detail });
  const flagNote = (...rows) => (rows.some((row) => row?.flagged) ? ' (a row has errors: see the table)' : '');
  add(
    `GET /v1/pets kennel/baseline >= ${TARGETS.getListRatioBaseline}`,
    kennel?.vsBaseline,
    kennel?.vsBaseline >= TARGETS.getListRatioBaseline && !kennel?.flagged && !list.baseline?.flagged,
    `${formatFixed(kennel?.vsBaseline)} (${formatInt(kennel?.reqPerSec)} vs ${formatInt(list.baseline?.reqPerSec)} req/s)${flagNote(kennel, list.baseline)}`,
  );
  add(
    `GET /v1/pets kennel/prism >= ${TARGETS.getListRatioPrism}`,
    kennel?.vsPrism,
    kennel?.vsPrism >= TARGETS.getListRatioPrism && !kennel?.flagged && !list.prism?.flagged,
    kennel?.vsPrism === undefined
      ? `no Prism figures: ${prismSkipped}`
      : `${formatFixed(kennel.vsPrism)} (${formatInt(kennel.reqPerSec)} vs ${formatInt(list.prism?.reqPerSec)} req/s)${flagNote(kennel, list.prism)}`,
    kennel?.vsPrism === undefined,
  );
  const coldS = cold.kennel?.medianMs !== undefined ? cold.kennel.medianMs / 1000 : undefined;
  add(
    `kennel cold start <= ${TARGETS.coldStartS} s`,
    coldS,
    coldS <= TARGETS.coldStartS,
    `${formatFixed(coldS)} s (median of ${cold.kennel?.samplesMs?.length ?? 0} spawns)`,
  );
  const rss = memory.kennel?.rssMb;
  add(
    `kennel RSS after GET /v1/pets load <= ${TARGETS.rssMb} MB`,
    rss,
    rss <= TARGETS.rssMb,
    `${formatFixed(rss, 1)} MB`,
    rss === undefined,
  );
  const contractS = contract.medianMs !== undefined ? contract.medianMs / 1000 : undefined;
  add(
    `kennel check full default run <= ${TARGETS.contractRunS} s`,
    contractS,
    contractS <= TARGETS.contractRunS,
    contract.error ??
      `${formatFixed(contractS)} s wall, ${contract.requests} requests (median of ${contract.samplesMs.length} runs against a fresh kennel serve)`,
  );
  const scenarioS = scenarios.medianMs !== undefined ? scenarios.medianMs / 1000 : undefined;
  add(
    `kennel scenario run scenarios/ <= ${TARGETS.scenarioLibraryS} s`,
    scenarioS,
    scenarioS <= TARGETS.scenarioLibraryS,
    scenarios.error ??
      `${formatFixed(scenarioS)} s wall for ${scenarios.scenarios} scenarios spanning ${scenarios.virtual} of virtual time (median of ${scenarios.samplesMs.length} runs)`,
  );
  const npxS = npx.coldMedianMs !== undefined ? npx.coldMedianMs / 1000 : undefined;
  add(
    `first npx kennel --version in a fresh clone <= ${TARGETS.npxFirstCallS} s`,
    npxS,
    npxS <= TARGETS.npxFirstCallS,
    npx.error ??
      `${formatFixed(npxS)} s median of ${npx.coldMs.length} fresh clones (then ${formatFixed(npx.warmMedianMs / 1000)} s warm; node bin/kennel.js alone is the cold start above)`,
  );
  for (const row of scale) {
    add(
      `document ${row.name.split(' ')[0]}: load + mock app + check plan <= ${TARGETS.documentScaleS} s`,
      row.totalS,
      row.totalS <= TARGETS.documentScaleS,
      row.error ??
        `${formatFixed(row.totalS)} s for ${row.name}, ${formatFixed(row.bytes / 1e6, 1)} MB, ${row.operations} operations (load ${formatFixed(row.loadS)} s, mock app ${formatFixed(row.appS)} s, check plan ${formatFixed(row.planS)} s)`,
    );
  }
  add(
    `self-consistency: kennel check finds nothing in kennel serve of ${consistency.seeds} generated documents`,
    consistency.agreeing,
    consistency.agreeing === consistency.seeds,
    consistency.error ??
      `${consistency.agreeing}/${consistency.seeds} agree, ${consistency.groups.length} kinds of disagreement (${formatFixed(consistency.seconds)} s; npm run bench:consistency shows each)`,
  );
  return results;
}

async function main() {
  const opts = options();
  if (!existsSync(path.join(ROOT, 'dist', 'cli', 'main.js')))
    throw new BenchError('dist/ is missing: run `npm run build` first');
  if (Number(process.versions.node.split('.')[0]) < 24)
    log(
      `warning: this is Node ${process.version}; the figures are for Node 24 (npm run bench puts node_modules/.bin first on PATH)`,
    );
  mkdirSync(BENCH_DIR, { recursive: true });
  const started = new Date();
  log(
    `bench: ${opts.rounds} round(s) x ${opts.duration} s, ${opts.connections} connections, warm-up ${opts.warmup} s, ${opts.coldStarts} cold starts; ${os.cpus().length} CPUs, Node ${process.version}`,
  );
  const busyBefore = await machineBusyCores(1000);
  if (busyBefore !== undefined)
    log(
      `machine: ${formatFixed(busyBefore)} cores busy before the start${busyBefore > BUSY_CORES ? ' — other processes are running: the figures will be noisy' : ''}`,
    );

  const prism = opts.prism ? await ensurePrism(BENCH_DIR, log) : { skip: 'left out with --no-prism' };
  if (prism.skip) log(`prism: skipped: ${prism.skip}`);
  else
    log(
      `prism: ${prism.installedNow ? 'installed' : 'reusing'} @stoplight/prism-cli ${prism.version} from .bench/prism`,
    );
  const redis = await startBenchRedis(BENCH_DIR);
  log(redis.skip ? `kennel-redis: skipped: ${redis.skip}` : `kennel-redis: redis-server on ${redis.url}`);
  const targets = targetDefinitions(prism, redis);

  log('cold starts (spawn -> first authorized GET /pets answered 200)…');
  const cold = await coldStarts(targets, opts.coldStarts);

  log('kennel check: full default runs against a fresh kennel serve…');
  const kennelTarget = targets.find((target) => target.id === 'kennel');
  const contract = await timeContractRuns({
    bin: KENNEL_BIN,
    cwd: ROOT,
    apiKey: API_KEY,
    runs: opts.quick ? 1 : 3,
    log,
    startServer: async () => {
      const started = await startTarget(kennelTarget, { forLoad: false });
      return { baseUrl: `${started.origin}${kennelTarget.basePath}`, stop: () => stopChild(started.handle) };
    },
  });

  log('kennel scenario run: the whole scenario library…');
  const scenarios = await timeScenarioRuns({ bin: KENNEL_BIN, cwd: ROOT, runs: opts.quick ? 1 : 3, log });

  log('npx kennel --version: the first call in a fresh clone…');
  const npx = await timeNpxFirstCall({ root: ROOT, runs: opts.quick ? 1 : 3, log });

  log('document scale: a generated 3 MB document and a 600-operation one split over files…');
  const scale = await timeDocumentScale({ log });

  const checkScale = await checkAtScale(opts.quick, {
    bin: KENNEL_BIN,
    cwd: ROOT,
    benchDir: BENCH_DIR,
    apiKey: API_KEY,
    log,
  });

  log('self-consistency: generated documents, each served and checked in process…');
  const consistencySeeds = opts.quick ? 20 : 100;
  const consistency = await timeSelfConsistency({ seeds: consistencySeeds, log }).catch((error) => ({
    seeds: consistencySeeds,
    agreeing: 0,
    groups: [],
    error: error.message,
  }));

  const unpinned = opts.pin ? pinningUnavailable() : 'left with --no-pin';
  log(`starting the servers under load… (${unpinned ? `not pinned: ${unpinned}` : 'on core 0, the load on core 1'})`);
  const running = {};
  let prismSkipped = prism.skip;
  try {
    for (const target of targets) {
      if (cold[target.id]?.error) continue;
      try {
        running[target.id] = await startTarget(target, { forLoad: true, pin: !unpinned });
        running[target.id].idleMemory = memoryOf(running[target.id].handle.pid);
        log(
          `${target.id}: pid ${running[target.id].handle.pid} on ${running[target.id].origin}, GET ${target.basePath}/pets -> ${running[target.id].listLength} pets, RSS ${formatFixed(running[target.id].idleMemory?.rssMb, 1)} MB`,
        );
      } catch (error) {
        if (!target.optional) throw new BenchError(`${target.id} did not start: ${error.message}`);
        log(`${target.id}: did not start, skipping it: ${error.message}`);
        prismSkipped = error.message;
      }
    }
    if (cold.prism?.error) prismSkipped = cold.prism.error;

    const release = unpinned ? () => {} : pinSelf();
    const { rows, memory, skipped } = await loadAll(targets, running, opts).finally(release);
    if (skipped.prism) prismSkipped = skipped.prism;
    const summary = summarise(rows);
    const results = checks(summary, cold, memory, prismSkipped, contract, scenarios, scale, consistency, npx);
    const acceptance = acceptanceChecks({ summary, cold, memory, prismSkipped, checkScale });

    const out = [];
    out.push('');
    out.push(
      `kennel benchmark: ${opts.rounds} round(s) x ${opts.duration} s per target and route, ${opts.connections} connections, median round shown; ${os.cpus().length} CPUs, Node ${process.version}; ${unpinned ? `not pinned (${unpinned})` : 'servers on core 0, load on core 1'}`,
    );
    out.push('');
    out.push(loadTable(summary, targets));
    out.push('');
    out.push(
      '  req/s and p99 are from the median round; non-2xx and errors count every round and the warm-up. "!!" flags a row with errors.',
    );
    out.push(
      '  "other CPU": most cores that other processes (not the bench, not the server) used during one of the row\'s rounds.',
    );
    out.push(
      "  Prism serves the spec's examples (a 2-pet list) at /pets; kennel and the baseline send 20 pets at /v1/pets.",
    );
    out.push(
      "  kennel-stateless is kennel --stateless: every operation answered from the document (examples, generated values) behind kennel's auth and validation.",
    );
    out.push(
      `  kennel-redis is kennel --store ${redis.url ?? 'unix://…'} (state in a local redis-server): ${redisLine(summary, redis)}`,
    );
    out.push('');
    out.push('cold start (spawn -> first authorized GET /pets answered 200):');
    for (const target of targets) {
      const entry = cold[target.id];
      out.push(
        entry?.medianMs !== undefined
          ? `  ${target.id.padEnd(12)} ${formatInt(entry.medianMs).padStart(5)} ms median of ${entry.samplesMs.length} (min ${formatInt(entry.minMs)}, max ${formatInt(entry.maxMs)})`
          : `  ${target.id.padEnd(12)} skipped: ${entry?.error ?? 'not run'}`,
      );
    }
    out.push('');
    out.push('memory (VmRSS from /proc/<pid>/status) right after the GET /v1/pets load:');
    for (const target of targets) {
      const entry = memory[target.id];
      const idle = running[target.id]?.idleMemory?.rssMb;
      out.push(
        entry?.rssMb !== undefined
          ? `  ${target.id.padEnd(12)} ${formatFixed(entry.rssMb, 1).padStart(6)} MB (peak ${formatFixed(entry.peakRssMb, 1)} MB; ${formatFixed(idle, 1)} MB idle before the load)`
          : `  ${target.id.padEnd(12)} -`,
      );
    }
    out.push('', 'kennel check (full default run against a fresh kennel serve, spawn to exit):');
    out.push(
      contract.error
        ? `  failed: ${contract.error}`
        : `  ${formatInt(contract.medianMs)} ms median of ${contract.samplesMs.length} (${contract.samplesMs.map((ms) => formatInt(ms)).join(', ')} ms), ${contract.requests} requests per run`,
    );
    out.push('', 'kennel scenario run scenarios/ (spawn to exit):');
    out.push(
      scenarios.error
        ? `  failed: ${scenarios.error}`
        : `  ${formatInt(scenarios.medianMs)} ms median of ${scenarios.samplesMs.length} (${scenarios.samplesMs.map((ms) => formatInt(ms)).join(', ')} ms), ${scenarios.scenarios} scenarios, ${scenarios.virtual} of virtual time`,
    );
    out.push('');
    out.push('self-consistency (kennel check against kennel serve of generated documents):');
    out.push(
      `  ${consistency.agreeing}/${consistency.seeds} agree${consistency.error ? `: ${consistency.error}` : ''}`,
    );
    for (const group of consistency.groups.slice(0, 8))
      out.push(`  ${String(group.seeds.length).padStart(3)} x ${group.key.slice(0, 100)}  (${group.reproduce})`);
    out.push('');
    out.push('targets:');
    for (const check of results) out.push(`  ${check.status}  ${check.name}: ${check.detail}`);
    out.push('', ...acceptanceLines(acceptance));
    const flaggedRows = Object.entries(summary)
      .flatMap(([, byTarget]) => Object.values(byTarget))
      .filter((row) => row.flagged);
    const busiest = Math.max(
      busyBefore ?? 0,
      ...Object.values(summary).flatMap((byTarget) => Object.values(byTarget).map((row) => row.otherCoresMax)),
    );
    if (busiest > BUSY_CORES)
      out.push(
        `\nWARNING: other processes used up to ${formatFixed(busiest)} of ${os.cpus().length} cores during the run; the figures are skewed. Rerun on a quiet machine.`,
      );
    if (flaggedRows.length > 0)
      out.push(
        `\nWARNING: ${flaggedRows.length} row(s) had non-2xx responses or errors (marked !!); their figures are not comparable.`,
      );
    console.log(out.join('\n'));

    const file = path.join(BENCH_DIR, 'results.json');
    writeFileSync(
      file,
      `${JSON.stringify(
        {
          startedAt: started.toISOString(),
          finishedAt: new Date().toISOString(),
          machine: {
            cpus: os.cpus().length,
            cpuModel: os.cpus()[0]?.model,
            platform: `${os.platform()} ${os.release()}`,
            totalMemMb: Math.round(os.totalmem() / 2 ** 20),
          },
          versions: versions(ROOT, prism),
          options: opts,
          busyCoresBeforeStart: busyBefore,
          targets: TARGETS,
          summary,
          coldStart: cold,
          contractRun: contract,
          npxFirstCall: npx,
          documentScale: scale,
          selfConsistency: consistency,
          scenarioRun: scenarios,
          memoryAfterList: memory,
          memoryIdle: Object.fromEntries(Object.entries(running).map(([id, entry]) => [id, entry.idleMemory])),
          checks: results,
          checkAtScale: checkScale,
          acceptance,
          prismSkipped: summary.list?.prism ? undefined : prismSkipped,
          rounds: rows,
        },
        null,
        2,
      )}\n`,
    );
    log(`results written to ${path.relative(process.cwd(), file) || file}`);
  } finally {
    await Promise.all(Object.values(running).map((entry) => stopChild(entry.handle)));
    await redis.stop?.();
  }
}

/** The Redis store's throughput per route as a share of the in-memory store's, or why there is none. */
function redisLine(summary, redis) {
  if (redis.skip) return `skipped: ${redis.skip}`;
  return ROUTES.map((route) => {
    const row = summary[route.id]?.['kennel-redis'];
    return row
      ? `${route.label} ${formatInt(row.reqPerSec)} req/s = ${formatFixed(row.vsMemory)} x memory`
      : `${route.label} -`;
  }).join('; ');
}

function onSignal(signal) {
  log(`\nbench: ${signal}, stopping the load and the servers`);
  stopLoad();
  killAll('SIGKILL');
  process.exit(signal === 'SIGINT' ? 130 : 143);
}

process.on('SIGINT', onSignal);
process.on('SIGTERM', onSignal);
process.on('SIGHUP', onSignal);
process.on('exit', () => killAll('SIGKILL'));

try {
  await main();
  process.exitCode = 0;
} catch (error) {
  stopLoad();
  killAll('SIGKILL');
  log(`bench: could not run: ${error instanceof BenchError ? error.message : (error?.stack ?? error)}`);
  process.exitCode = 2;
}
