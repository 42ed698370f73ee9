// node bench/rss.js: kennel's resident memory against the Koa baseline's, measured the way
// `npm run bench` does (VmRSS from /proc/<pid>/status right after the GET /v1/pets load), without
// the rest of the bench: each server idle after start-up, then after `--duration` seconds of list
// load, then after the same of POST load. kennel-redis joins when redis-server is installed;
// `--compare DIR` adds the kennel of another checkout (its own built dist/), e.g. before a change.
// With `--rounds N` the targets take turns N times and each figure is the median.
//
//   node bench/rss.js [--duration S] [--connections N] [--rounds N] [--compare DIR] [--no-redis] [--json]
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { freePort, killAll, memoryOf, request, startChild, stopChild, waitUntilAnswering } from './lib/children.js';
import { runLoad } from './lib/load.js';
import { startBenchRedis } from './lib/redis.js';
import { formatFixed, median, ratio } from './lib/report.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const BENCH_DIR = path.join(ROOT, '.bench');
const KENNEL_BIN = path.join(ROOT, 'bin', 'kennel.js');
const BASELINE = path.join(ROOT, 'bench', 'baseline-server.js');
const API_KEY = 'bench-key';
const AUTH = { authorization: `Bearer ${API_KEY}` };
const HOST = '127.0.0.1';
const CREATE = {
  method: 'POST',
  headers: { ...AUTH, 'content-type': 'application/json' },
  body: JSON.stringify({ name: 'Bench', categoryId: 1, status: 'available' }),
};

const { values } = parseArgs({
  options: {
    duration: { type: 'string', default: '3' },
    connections: { type: 'string', default: '50' },
    rounds: { type: 'string', default: '1' },
    compare: { type: 'string' },
    'no-redis': { type: 'boolean', default: false },
    json: { type: 'boolean', default: false },
  },
});
const duration = Number(values.duration);
const connections = Number(values.connections);
const rounds = Number(values.rounds);

function kennelArgs(port, extra = []) {
  return [
    ...['serve', '--port', String(port), '--api-key', API_KEY, '--log-level', 'warn', '--pets', '30'],
    ...['--max-pets', '1000000', ...extra],
  ];
}

const targets = [
  { id: 'kennel', command: (port) => [KENNEL_BIN, kennelArgs(port)] },
  {
    id: 'baseline',
    command: (port) => [process.execPath, [BASELINE, '--port', String(port), '--api-key', API_KEY, '--host', HOST]],
  },
];

async function measure(target) {
  const port = await freePort();
  const [command, args] = target.command(port);
  const handle = startChild(target.id, command, args, { cwd: ROOT });
  const origin = `http://${HOST}:${port}/v1`;
  try {
    const { ms } = await waitUntilAnswering(handle, `${origin}/pets`, AUTH, { timeoutMs: 60_000 });
    const idle = memoryOf(handle.pid);
    await runLoad({ url: `${origin}/pets`, headers: AUTH, connections, duration });
    const afterList = memoryOf(handle.pid);
    const create = await request(`${origin}/pets`, CREATE);
    if (create.status !== 201) process.stderr.write(`${target.id}: POST answered ${create.status}\n`);
    await runLoad({ url: `${origin}/pets`, ...CREATE, connections, duration });
    const afterCreate = memoryOf(handle.pid);
    return { id: target.id, coldStartMs: ms, idle, afterList, afterCreate };
  } finally {
    await stopChild(handle);
  }
}

/** The median of each figure over the rounds of one target. */
function medianOf(samples) {
  const pick = (read) => median(samples.map(read));
  const memory = (phase) => ({
    rssMb: pick((row) => row[phase].rssMb),
    peakRssMb: pick((row) => row[phase].peakRssMb),
  });
  return {
    id: samples[0].id,
    coldStartMs: pick((row) => row.coldStartMs),
    idle: memory('idle'),
    afterList: memory('afterList'),
    afterCreate: memory('afterCreate'),
    samples,
  };
}

async function main() {
  mkdirSync(BENCH_DIR, { recursive: true });
  const redis = values['no-redis'] ? { skip: 'left out' } : await startBenchRedis(BENCH_DIR);
  if (redis.url)
    targets.splice(1, 0, {
      id: 'kennel-redis',
      command: (port) => [KENNEL_BIN, kennelArgs(port, ['--store', redis.url])],
    });
  if (values.compare) {
    const bin = path.resolve(values.compare, 'bin', 'kennel.js');
    targets.splice(1, 0, {
      id: `kennel@${path.basename(path.resolve(values.compare))}`,
      command: (port) => [bin, kennelArgs(port)],
    });
  }
  const samples = new Map(targets.map((target) => [target.id, []]));
  try {
    for (let round = 0; round < rounds; round += 1)
      for (const target of targets) samples.get(target.id).push(await measure(target));
  } finally {
    await redis.stop?.();
  }
  const results = [...samples.values()].map(medianOf);
  if (values.json) return console.log(JSON.stringify(results, null, 2));
  const baseline = results.find((row) => row.id === 'baseline');
  console.log(`VmRSS in MB (${duration} s x ${connections} connections per load; median of ${rounds} round(s))`);
  console.log('target            start ms   idle  after list  after POST  peak   list vs Koa');
  for (const row of results)
    console.log(
      [
        row.id.padEnd(16),
        formatFixed(row.coldStartMs, 0).padStart(9),
        formatFixed(row.idle.rssMb, 1).padStart(6),
        formatFixed(row.afterList.rssMb, 1).padStart(11),
        formatFixed(row.afterCreate.rssMb, 1).padStart(11),
        formatFixed(row.afterCreate.peakRssMb, 1).padStart(6),
        formatFixed(ratio(row.afterList.rssMb, baseline.afterList.rssMb)).padStart(13),
      ].join(' '),
    );
}

process.on('exit', () => killAll('SIGKILL'));
await main();
