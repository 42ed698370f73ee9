// npm run reliability: hostile input against a real `kennel serve` (child process, loopback only).
//
//   1. ≥ 1,000 generated hostile HTTP requests over raw sockets (one table of families, seeded)
//      to the pet API, the admin API and the world's control API; every answer judged; the store
//      byte-identical before and after; the server as fast as before.
//   2. ≥ 5,000 fuzzed DNS packets over UDP and TCP (QR=1 packets must go unanswered), the costliest
//      packets one at a time while a worker thread measures how long HTTP stalls, a TCP client
//      that never reads.
//   3. Concurrent writers across tenants, journal pressure, slow clients (slowloris, slow bodies)
//      during a short soak with RSS sampled.
//   4. The second round (issue 18), each family against kennels of its own: request smuggling,
//      base-path escapes and broken upstreams through --proxy; two processes and kill -9 on
//      --data; a slow and a frozen Redis, passwords in store URLs; creates across --watch
//      reloads; chaos delays hoarded; CSRF and DNS rebinding on the admin and world APIs.
//
//   npm run reliability [-- --quick] [--seed N] [--requests N] [--soak S] [--family a,b] [--round-two a,b|none] [--out FILE] [--bin FILE]
//
// Prints a table of figures and the findings grouped by family, writes .bench/reliability.json
// (keys and tokens are fresh per run and replaced by their labels in everything printed or saved).
// Hard bounds: no 5xx, every error a conforming `Error`, the store unchanged, no crash, DNS alive,
// no answer to QR=1; the long form also: no HTTP stall over 50 ms from one DNS packet, GETs after
// the hostile requests at least half as fast as before. Exit 0 when every hard bound holds, 1 when
// one is broken, 2 when the suite could not run. `--bin` tests another build (e.g. an older commit).
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { apiClient, bearer } from './lib/api-client.js';
import { memoryOf } from './lib/children.js';
import { runWriters } from './lib/concurrent-writers.js';
import { killServeChildren, ROUND_TWO_FAMILIES, ROUND_TWO_PROFILES, runRoundTwo } from './lib/round-two/index.js';
import { redactor, secretFragments } from './lib/conformance.js';
import { runDnsFuzz } from './lib/dns-fuzz.js';
import { runJournalPressure } from './lib/journal-pressure.js';
import { FAMILIES, planCases } from './lib/hostile-cases.js';
import { runHostile } from './lib/hostile-http.js';
import { killAllKennels, startKennel } from './lib/kennel-child.js';
import { buildReport } from './lib/reliability-report.js';
import { formatFixed, formatInt } from './lib/report.js';
import { startSlowClients } from './lib/slow-clients.js';
import { runSoak } from './lib/soak.js';
import { startStallProbe } from './lib/stall-probe.js';
import { diffSnapshots, snapshotStore } from './lib/store-snapshot.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const DEFAULT_OUT = path.join(ROOT, '.bench', 'reliability.json');
const MAX_STALL_MS = 50;

/** The two forms: quick (inside npm test, a few seconds) and long (for benchmarks). */
const PROFILES = {
  quick: {
    requests: 1100,
    concurrency: 24,
    answerMs: 500,
    dns: {
      udp: 4000,
      tcp: 800,
      qr: 300,
      heavyMaxSize: 32_768,
      gapMs: 60,
      stallTimeoutMs: 15_000,
      neverReadBytes: 2 * 2 ** 20,
      neverReadMs: 1200,
      settleMs: 300,
      answerMs: 1000,
    },
    writers: { perKey: 50, concurrency: 8 },
    journal: { pets: 10, nameBytes: 50_000, lists: 60 },
    slow: { count: 50, bodies: 5, intervalMs: 1000, boundMs: undefined },
    soak: { seconds: 2, concurrency: 8 },
    speedRequests: 200,
    roundTwo: ROUND_TWO_PROFILES.quick,
    watchdogS: 140,
  },
  long: {
    requests: 3000,
    concurrency: 16,
    answerMs: 3000,
    dns: {
      udp: 16_000,
      tcp: 3000,
      qr: 1000,
      heavyMaxSize: 65_507,
      gapMs: 250,
      stallTimeoutMs: 60_000,
      neverReadBytes: 20 * 2 ** 20,
      neverReadMs: 20_000,
      settleMs: 1000,
      answerMs: 3000,
    },
    writers: { perKey: 500, concurrency: 16 },
    journal: { pets: 20, nameBytes: 50_000, lists: 300 },
    slow: { count: 1000, bodies: 20, intervalMs: 5000, boundMs: 60_000 },
    soak: { seconds: 60, concurrency: 16 },
    speedRequests: 1000,
    roundTwo: ROUND_TWO_PROFILES.long,
    watchdogS: 1500,
  },
};

const USAGE = `usage: npm run reliability [-- options]
  --quick           the quick form (a few seconds; what npm test runs)
  --seed N          seed of the generated requests and packets (default 1)
  --requests N      hostile HTTP requests (default ${PROFILES.long.requests}, quick ${PROFILES.quick.requests})
  --soak S          seconds of soak (default ${PROFILES.long.soak.seconds}, quick ${PROFILES.quick.soak.seconds})
  --family a,b      only these hostile families (${FAMILIES.map((family) => family.family).join(', ')})
  --round-two a,b   only these second-round families (${ROUND_TWO_FAMILIES.join(', ')}), or none
  --out FILE        JSON report (default .bench/reliability.json)
  --bin FILE        the kennel executable script to test (default bin/kennel.js)
  -h, --help        this text`;

class SuiteError extends Error {}

const log = (message) => process.stderr.write(`${message}\n`);

function options() {
  let parsed;
  try {
    parsed = parseArgs({
      options: {
        quick: { type: 'boolean', default: false },
        seed: { type: 'string', default: '1' },
        requests: { type: 'string' },
        soak: { type: 'string' },
        family: { type: 'string' },
        'round-two': { type: 'string' },
        out: { type: 'string', default: DEFAULT_OUT },
        bin: { type: 'string', default: path.join(ROOT, 'bin', 'kennel.js') },
        help: { type: 'boolean', short: 'h', default: false },
      },
    }).values;
  } catch (error) {
    throw new SuiteError(`${error.message}\n${USAGE}`);
  }
  if (parsed.help) {
    console.log(USAGE);
    process.exit(0);
  }
  const integer = (name, raw, min) => {
    const value = Number(raw);
    if (!Number.isInteger(value) || value < min)
      throw new SuiteError(`--${name} must be an integer >= ${min}, not "${raw}"\n${USAGE}`);
    return value;
  };
  const profile = structuredClone(PROFILES[parsed.quick ? 'quick' : 'long']);
  if (parsed.requests !== undefined) profile.requests = integer('requests', parsed.requests, 1);
  if (parsed.soak !== undefined) profile.soak.seconds = integer('soak', parsed.soak, 0);
  const only = parsed.family
    ?.split(',')
    .map((name) => name.trim())
    .filter(Boolean);
  const unknown = only?.filter((name) => !FAMILIES.some((family) => family.family === name)) ?? [];
  if (unknown.length > 0) throw new SuiteError(`unknown family ${unknown.join(', ')}\n${USAGE}`);
  const roundTwo = parsed['round-two']
    ?.split(',')
    .map((name) => name.trim())
    .filter(Boolean);
  const unknownTwo = roundTwo?.filter((name) => name !== 'none' && !ROUND_TWO_FAMILIES.includes(name)) ?? [];
  if (unknownTwo.length > 0) throw new SuiteError(`unknown second-round family ${unknownTwo.join(', ')}\n${USAGE}`);
  return {
    roundTwo: roundTwo?.includes('none') ? [] : roundTwo,
    quick: parsed.quick,
    seed: integer('seed', parsed.seed, 0),
    profile,
    only,
    out: path.resolve(parsed.out),
    bin: path.resolve(parsed.bin),
  };
}

/** Fresh random keys and token for this run: never printed, replaced by their labels in every output. */
function makeSecrets() {
  const hex = (bytes) => randomBytes(bytes).toString('hex');
  return {
    keyA: `rka${hex(12)}`,
    keyB: `rkb${hex(12)}`,
    keyC: `rkc${hex(12)}`,
    keyD: `rkd${hex(12)}`,
    admin: `rat${hex(12)}`,
  };
}

function commitOf(directory) {
  try {
    return execFileSync('git', ['-C', directory, 'rev-parse', '--short', 'HEAD'], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();
  } catch {
    return undefined;
  }
}

/** Sequential GETs of a 20-pet list after `warmUp` unmeasured ones: requests per second. */
async function timedGets(client, key, count, warmUp = 0) {
  for (let index = 0; index < warmUp; index += 1) await client.get('/v1/pets?limit=20', bearer(key));
  const started = performance.now();
  for (let index = 0; index < count; index += 1) await client.get('/v1/pets?limit=20', bearer(key));
  return count / ((performance.now() - started) / 1000);
}

/** The server under test, restarted (and the crash recorded) when it dies during a phase. */
class Server {
  constructor(opts, secrets, fragments) {
    Object.assign(this, {
      opts,
      secrets,
      fragments,
      crashes: [],
      handle: undefined,
      client: undefined,
      probe: undefined,
      probeResults: [],
    });
  }

  async start() {
    const { keyA, keyB, keyC, keyD, admin } = this.secrets;
    const args = ['--api-key', keyA, '--api-key', keyB, '--api-key', keyC, '--api-key', keyD, '--admin-token', admin];
    args.push('--max-body', '1mb', '--log-level', 'info', '--seed', '1', '--pets', '30');
    try {
      this.handle = await startKennel({ bin: this.opts.bin, cwd: ROOT, args, fragments: this.fragments });
    } catch (error) {
      throw new SuiteError(`kennel serve did not start: ${error.message}`);
    }
    this.client = apiClient(this.handle.origin);
    this.probe = startStallProbe({ url: `${this.handle.origin}/__kennel/health` });
    this.ctx = {
      host: this.handle.host,
      port: this.handle.port,
      hostPort: `${this.handle.host}:${this.handle.port}`,
      key: keyA,
      admin,
      tenants: { keyA, keyB, keyC, keyD },
    };
    log(
      `kennel: pid ${this.handle.pid}, ${this.handle.origin}, DNS port ${this.handle.dnsPort}, ready in ${formatInt(this.handle.readyMs)} ms`,
    );
  }

  alive() {
    return this.handle !== undefined && this.handle.exitInfo === undefined;
  }

  /** After a phase: when the server died, record it and start a fresh one for the next phase. */
  async checkCrash(phase) {
    if (this.alive()) return false;
    const { code, signal } = this.handle.exitInfo;
    this.crashes.push({ phase, code, signal, output: this.handle.output().slice(-2000) });
    log(`!! kennel died during ${phase} (code ${code}, signal ${signal}); starting a fresh one for the next phases`);
    await this.stopProbe();
    this.client.close();
    await this.start();
    return true;
  }

  async stopProbe() {
    if (!this.probe) return;
    try {
      this.probeResults.push(await this.probe.stop());
    } catch (error) {
      this.probeResults.push({ error: error.message });
    }
    this.probe = undefined;
  }

  async stop() {
    await this.stopProbe();
    this.client?.close();
    if (!this.handle) return undefined;
    const started = performance.now();
    const info = await this.handle.stop(5000);
    return { ...info, ms: performance.now() - started };
  }
}

async function hostilePhase(server, opts, figures) {
  const groups = planCases({ seed: opts.seed, count: opts.profile.requests, only: opts.only });
  log(
    `hostile HTTP: ${groups.reduce((sum, group) => sum + group.plans.length, 0)} requests in ${groups.length} families, ${opts.profile.concurrency} at a time`,
  );
  figures.hostile = await runHostile({
    probe: server.probe,
    ctx: server.ctx,
    groups,
    client: server.client,
    concurrency: opts.profile.concurrency,
    answerMs: opts.profile.answerMs,
    fragments: server.fragments,
    alive: () => server.alive(),
    log,
  });
}

async function dnsPhase(server, opts, figures) {
  log(`DNS fuzz on port ${server.handle.dnsPort}:`);
  figures.dns = await runDnsFuzz({
    host: server.handle.host,
    port: server.handle.dnsPort,
    pid: server.handle.pid,
    seed: opts.seed,
    probe: server.probe,
    plan: opts.profile.dns,
    log,
  });
}

async function writersPhase(server, opts, figures) {
  const { keyA, keyB, keyC, keyD } = server.secrets;
  server.probe.mark('writers');
  figures.writers = await runWriters({
    client: server.client,
    keys: { keyA, keyB, keyC, keyD },
    ...opts.profile.writers,
    seed: opts.seed,
  });
  const w = figures.writers;
  log(
    `writers: ${w.created}/${w.attempted} pets created by ${w.tenants} tenants; ${w.readBackMismatches} read-back mismatches, ${w.crossTenantSightings} cross-tenant sightings`,
  );
}

async function journalPhase(server, opts, figures) {
  const { keyD, admin } = server.secrets;
  server.probe.mark('journal');
  figures.journal = await runJournalPressure({
    client: server.client,
    key: keyD,
    admin,
    pid: server.handle.pid,
    ...opts.profile.journal,
  });
  await server.client.post('/__kennel/reset', { apiKey: keyD }, bearer(admin)).catch(() => undefined);
  const { rss, listBytes } = figures.journal;
  log(
    `journal: ${formatFixed(listBytes / 2 ** 20, 0)} MB of list responses; RSS ${formatFixed(rss.beforeMb, 0)} -> ${formatFixed(rss.afterListsMb, 0)} MB, ${formatFixed(rss.afterClearMb, 0)} MB after clearing it`,
  );
}

async function soakPhase(server, opts, figures) {
  const { slow, soak } = opts.profile;
  const { keyA, keyB, keyC, keyD, admin } = server.secrets;
  const slowClients = startSlowClients({
    host: server.ctx.host,
    port: server.ctx.port,
    hostPort: server.ctx.hostPort,
    key: keyA,
    count: slow.count,
    bodies: slow.bodies,
    intervalMs: slow.intervalMs,
    boundMs: slow.boundMs ?? Infinity,
  });
  server.probe.mark('soak');
  log(
    `soak: ${soak.seconds} s of mixed traffic, ${slow.count} slowloris and ${slow.bodies} slow-body connections meanwhile`,
  );
  figures.soak = await runSoak({
    client: server.client,
    ctx: { keyList: [keyA, keyB, keyC, keyD], admin },
    pid: server.handle.pid,
    ...soak,
    seed: opts.seed,
    alive: () => server.alive(),
  });
  if (slow.boundMs !== undefined) {
    const deadline = slowClients.startedAt + slow.boundMs + 10_000;
    while (!slowClients.allDropped() && performance.now() < deadline && server.alive())
      await new Promise((resolve) => setTimeout(resolve, 250));
  }
  figures.slow = await slowClients.stop();
  log(
    `slow clients: ${figures.slow.headers.dropped}/${figures.slow.headers.opened} slowloris and ${figures.slow.body.dropped}/${figures.slow.body.opened} slow bodies dropped after ${formatFixed(figures.slow.headers.observedMs / 1000, 1)} s`,
  );
}

async function roundTwoPhase(server, opts, figures) {
  if (opts.roundTwo?.length === 0) return;
  const { keyA, keyB, keyC, keyD, admin } = server.secrets;
  log('round two: proxy, --data, Redis, --watch, chaos and admin families, each on kennels of its own');
  figures.roundTwo = await runRoundTwo({
    bin: opts.bin,
    cwd: ROOT,
    keys: [keyA, keyB, keyC, keyD],
    adminToken: admin,
    profiles: opts.profile.roundTwo,
    only: opts.roundTwo,
    log,
  });
}

async function snapshot(server, label) {
  try {
    return await snapshotStore(server.client, {
      keys: {
        keyA: server.secrets.keyA,
        keyB: server.secrets.keyB,
        keyC: server.secrets.keyC,
        keyD: server.secrets.keyD,
      },
      admin: server.secrets.admin,
    });
  } catch (error) {
    return { error: `${label}: ${error.code ?? error.message}` };
  }
}

function compare(before, after) {
  if (before.error || after.error)
    return { store: [{ where: 'snapshot', before: before.error ?? 'ok', after: after.error ?? 'ok' }], world: [] };
  return diffSnapshots(before, after);
}

async function main() {
  const opts = options();
  if (!existsSync(opts.bin)) throw new SuiteError(`${opts.bin} is missing`);
  if (opts.bin.startsWith(ROOT) && !existsSync(path.join(ROOT, 'dist', 'cli', 'main.js')))
    throw new SuiteError('dist/ is missing: run `npm run build` first');
  if (Number(process.versions.node.split('.')[0]) < 24)
    log(
      `warning: this is Node ${process.version}; kennel needs Node >= 24 (npm run puts node_modules/.bin first on PATH)`,
    );
  const watchdog = setTimeout(() => {
    log(`reliability: still running after ${opts.profile.watchdogS} s; stopping`);
    killAllKennels();
    killServeChildren();
    process.exit(2);
  }, opts.profile.watchdogS * 1000);
  watchdog.unref();

  const secrets = makeSecrets();
  const redact = redactor(secrets);
  const fragments = secretFragments(secrets);
  const figures = {
    startedAt: new Date().toISOString(),
    form: opts.quick ? 'quick' : 'long',
    seed: opts.seed,
    commit: commitOf(path.dirname(path.dirname(opts.bin))),
    node: process.version,
  };
  const server = new Server(opts, secrets, fragments);
  const started = performance.now();
  await server.start();
  let failed;
  const phases = {};
  figures.phases = phases;
  /** Runs one phase, keeps its wall time, and checks the server survived it. */
  const phase = async (name, run) => {
    const begun = performance.now();
    await run();
    phases[name] = Number(((performance.now() - begun) / 1000).toFixed(2));
    return server.checkCrash(name);
  };
  try {
    server.probe.mark('idle');
    figures.rss = { idle: memoryOf(server.handle.pid) };
    figures.speed = {
      before: await timedGets(server.client, secrets.keyA, opts.profile.speedRequests, opts.profile.speedRequests * 2),
    };
    const before = await snapshot(server, 'before');
    const crashedInHostile = await phase('hostile HTTP', () => hostilePhase(server, opts, figures));
    figures.rss.afterHostile = memoryOf(server.handle.pid);
    figures.stateChanges = {
      hostile: crashedInHostile
        ? { store: [{ where: 'the server crashed' }], world: [] }
        : compare(before, await snapshot(server, 'after hostile')),
    };
    figures.speed.afterHostile = await timedGets(server.client, secrets.keyA, opts.profile.speedRequests);
    const beforeDns = await snapshot(server, 'before DNS');
    const crashedInDns = await phase('DNS fuzz', () => dnsPhase(server, opts, figures));
    figures.rss.afterDns = memoryOf(server.handle.pid);
    figures.dnsAliveAtEnd = !crashedInDns && figures.dns.aliveAtEnd.udp && figures.dns.aliveAtEnd.tcp;
    figures.stateChanges.dns = crashedInDns
      ? { store: [{ where: 'the server crashed' }], world: [] }
      : compare(beforeDns, await snapshot(server, 'after DNS'));
    await phase('writers', () => writersPhase(server, opts, figures));
    await phase('journal', () => journalPhase(server, opts, figures));
    await phase('soak', () => soakPhase(server, opts, figures));
    await phase('round two', () => roundTwoPhase(server, opts, figures));
    figures.speed.atEnd = await timedGets(server.client, secrets.keyA, opts.profile.speedRequests);
    figures.rss.end = memoryOf(server.handle.pid);
    log(
      `phases: ${Object.entries(phases)
        .map(([name, seconds]) => `${name} ${seconds} s`)
        .join(', ')}`,
    );
  } catch (error) {
    failed = error;
  } finally {
    const stopped = await server.stop();
    figures.shutdown = stopped;
    figures.leaks = {
      stdout: Object.fromEntries(server.handle.leaks().stdout),
      stderr: Object.fromEntries(server.handle.leaks().stderr),
    };
    figures.logVolume = server.handle.logVolume();
  }
  if (failed) throw failed;
  figures.crashes = server.crashes;
  figures.stalls = Object.assign({}, ...server.probeResults);
  figures.seconds = (performance.now() - started) / 1000;
  return report(opts, figures, redact);
}

/** Prints the report and writes the JSON file (secrets replaced by their labels); resolves the exit code. */
function report(opts, figures, redact) {
  const { text, json, code } = buildReport(opts, figures, { maxStallMs: MAX_STALL_MS });
  console.log(redact(text));
  mkdirSync(path.dirname(opts.out), { recursive: true });
  writeFileSync(opts.out, `${redact(JSON.stringify(json, null, 2))}\n`);
  log(`results written to ${path.relative(process.cwd(), opts.out) || opts.out}`);
  return code;
}

function onSignal(signal) {
  log(`\nreliability: ${signal}, stopping kennel`);
  killAllKennels();
  killServeChildren();
  process.exit(signal === 'SIGINT' ? 130 : 143);
}

process.on('SIGINT', onSignal);
process.on('SIGTERM', onSignal);
process.on('SIGHUP', onSignal);
process.on('exit', () => {
  killAllKennels();
  killServeChildren();
});

let code;
try {
  code = await main();
} catch (error) {
  killAllKennels();
  killServeChildren();
  log(`reliability: could not run: ${error instanceof SuiteError ? error.message : (error?.stack ?? error)}`);
  code = 2;
}
// Every socket and timer of the suite is bounded, but nothing left behind may keep the process alive.
process.exit(code);
