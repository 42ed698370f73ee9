// CPU time per request, the figure that survives a busy machine: requests per second fall when
// other processes take the cores, the server's own CPU seconds per request mostly do not.
//
//   node bench/cpu-per-request.js [--rounds N] [--duration S] [--connections N] [--routes list,item,create]
//                                 [--world] [--together | --pin] [DIR[::FLAGS[::NODE_FLAGS]] ...]
//
// Serves the minimal Koa baseline and `kennel serve` of each checkout DIR (default: this one; each
// needs a built dist/), with further serve FLAGS when given (`.::--no-cors --journal-size 0`) and
// Node flags in place of its shebang's (`.::::--max-semi-space-size=16`), loads them one at a time,
// the order rotating per round, and reports for
// each route the median over rounds of the server's CPU microseconds (user + system, from
// /proc/<pid>/stat) per answered request, and in brackets the median of its per-round ratios to
// the baseline's (the inverse of a throughput ratio: 1.11 ≈ 0.9× the baseline's speed on one core).
// --together loads every target at once in each round instead of one after the other: the
// figures are higher (the servers share the cores), but a burst of other processes' load falls
// on all of them alike, so the per-round ratios hold on a busy machine (an A/A run of one
// checkout against itself: 1.008 over 8 rounds, where one-at-a-time rounds drifted by 10-40 %).
// --pin runs as issue 20 is judged (and npm run bench loads): every server on core 0, the load
// generator on core 1, one target after the other; V8's helper threads then share the server's
// core, and kennel's create reads higher against Koa than on every core.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { freePort, killAll, startChild, stopChild, waitUntilAnswering } from './lib/children.js';
import { shebangNodeFlags } from './lib/node-flags.js';
import { onCoreZero, pinningUnavailable, pinSelf } from './lib/pinning.js';
import { runLoad } from './lib/load.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const API_KEY = 'bench-key';
const AUTH = { authorization: `Bearer ${API_KEY}` };
// Every pet a create round makes fits: a full store answers 507, which would be timed instead.
const LOAD_BUDGETS = ['--max-pets', '1000000', '--max-store-bytes', '2gb', '--max-total-bytes', '2gb'];
const TICK_US = 1e6 / 100; // USER_HZ is 100 on Linux
const ROUTES = [
  { id: 'list', method: 'GET', path: '/v1/pets' },
  { id: 'item', method: 'GET', path: '/v1/pets/1' },
  {
    id: 'create',
    method: 'POST',
    path: '/v1/pets',
    body: JSON.stringify({ name: 'Bench', categoryId: 1, status: 'available' }),
    headers: { 'content-type': 'application/json' },
  },
];

const USAGE = `usage: node bench/cpu-per-request.js [--rounds N] [--duration S] [--connections N]
       [--routes list,item,create] [--world] [--together | --pin] [DIR[::FLAGS[::NODE_FLAGS]] ...]`;

function readArguments() {
  try {
    return parseArgs({
      allowPositionals: true,
      options: {
        rounds: { type: 'string', default: '5' },
        duration: { type: 'string', default: '3' },
        connections: { type: 'string', default: '20' },
        routes: { type: 'string', default: ROUTES.map((route) => route.id).join(',') },
        world: { type: 'boolean', default: false },
        together: { type: 'boolean', default: false },
        pin: { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
      },
    });
  } catch (error) {
    process.stderr.write(`cpu-per-request: ${error.message}\n${USAGE}\n`);
    process.exit(2);
  }
}

const { values, positionals } = readArguments();
if (values.help) {
  process.stdout.write(`${USAGE}\n`);
  process.exit(0);
}
const unpinnable = !values.pin
  ? undefined
  : values.together
    ? 'it loads one target at a time: leave --together out'
    : pinningUnavailable();
if (unpinnable) {
  process.stderr.write(`cpu-per-request: --pin: ${unpinnable}\n${USAGE}\n`);
  process.exit(2);
}

function cpuTicks(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat
    .slice(stat.lastIndexOf(')') + 2)
    .split(' ')
    .map(Number);
  return fields[11] + fields[12];
}

function targets() {
  const dirs = positionals.length > 0 ? positionals : [ROOT];
  const list = [
    {
      id: 'baseline',
      command: (port) => [process.execPath, [path.join(ROOT, 'bench/baseline-server.js'), '--port', String(port)]],
    },
  ];
  for (const [index, spec] of dirs.entries()) {
    const [dir, flags = '', nodeFlags] = spec.split('::');
    const bin = path.join(path.resolve(dir), 'bin/kennel.js');
    const node = nodeFlags === undefined ? shebangNodeFlags(bin) : nodeFlags.split(' ').filter(Boolean);
    const args = ['--api-key', API_KEY, '--log-level', 'warn', '--pets', '30', ...LOAD_BUDGETS];
    list.push({
      id: dirs.length === 1 ? 'kennel' : `kennel#${index + 1}`,
      dir: spec,
      command: (port) => [
        process.execPath,
        [
          ...node,
          bin,
          'serve',
          '--port',
          String(port),
          ...args,
          ...(values.world ? [] : ['--no-world']),
          ...flags.split(' ').filter(Boolean),
        ],
      ],
    });
  }
  return list;
}

async function start(target) {
  const port = await freePort();
  const [command, args] = onCoreZero(values.pin, target.command(port));
  const handle = startChild(target.id, command, args, { cwd: ROOT });
  await waitUntilAnswering(handle, `http://127.0.0.1:${port}/v1/pets`, AUTH, { timeoutMs: 60_000 });
  return { ...target, handle, origin: `http://127.0.0.1:${port}` };
}

const median = (list) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)];

async function main() {
  const running = [];
  process.on('SIGINT', () => {
    killAll();
    process.exit(130);
  });
  try {
    for (const target of targets()) running.push(await start(target));
    // The load generator (autocannon, in this process) takes core 1 for the rest of the run.
    if (values.pin) pinSelf();
    for (const target of running.slice(1)) if (target.dir) console.log(`${target.id}: ${target.dir}`);
    const rounds = Number(values.rounds);
    const chosen = values.routes.split(',');
    for (const route of ROUTES.filter((candidate) => chosen.includes(candidate.id))) {
      const perRequest = new Map(running.map((target) => [target.id, []]));
      for (let round = 0; round <= rounds; round++) {
        const order = running.map((_, index) => running[(index + round) % running.length]);
        const measure = async (target) => {
          // As npm run bench does: each create round starts from the seeded store.
          if (route.method === 'POST' && target.dir) await fetch(`${target.origin}/__kennel/reset`, { method: 'POST' });
          const before = cpuTicks(target.handle.pid);
          const result = await runLoad({
            url: target.origin + route.path,
            method: route.method,
            headers: { ...AUTH, ...route.headers },
            body: route.body,
            connections: Number(values.connections),
            duration: round === 0 ? 1 : Number(values.duration),
          });
          const ticks = cpuTicks(target.handle.pid) - before;
          if (round > 0) perRequest.get(target.id).push((ticks * TICK_US) / result.requests);
        };
        if (values.together) await Promise.all(order.map(measure));
        else for (const target of order) await measure(target);
      }
      // Ratios are taken round by round (the machine's load drifts), then their median.
      const baseRounds = perRequest.get('baseline');
      const cells = running.map((target) => {
        const rounds = perRequest.get(target.id);
        const ratios = rounds.map((us, index) => us / baseRounds[index]);
        return `${target.id} ${median(rounds).toFixed(1)} µs (${median(ratios).toFixed(2)})`;
      });
      console.log(`${route.method} ${route.path}: ${cells.join(', ')}`);
    }
  } finally {
    await Promise.all(running.map((target) => stopChild(target.handle)));
  }
}

main().catch((error) => {
  console.error(`cpu-per-request: ${error.stack ?? error}`);
  killAll();
  process.exitCode = 2;
});
