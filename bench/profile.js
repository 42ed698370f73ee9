// npm run bench:profile: where kennel serve spends its time on one route. Starts kennel with
// --cpu-prof, loads the route with autocannon, stops kennel (which writes the profile) and prints
// the functions with the most self time, grouped by function and file. Proportions, not absolute
// times, are what to read: they hold on a busy machine where requests per second do not.
//
//   npm run bench:profile -- [--route list|item|create] [--duration S] [--connections N] [--top N]
//                            [--folded FILE]
//
// The profile stays in .bench/profiles/<route>.cpuprofile (open it in Chrome DevTools or
// speedscope for a flame graph); --folded also writes it as folded stacks, small enough to keep
// (bench/flames/ holds those of the routes issue 20 is about).
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { startChild } from './lib/children.js';
import { foldedStacks } from './lib/folded.js';
import { shebangNodeFlags } from './lib/node-flags.js';
import { runLoad } from './lib/load.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const PROFILES = path.join(ROOT, '.bench', 'profiles');
const API_KEY = 'bench-key';
const ROUTES = {
  list: { path: '/v1/pets', method: 'GET' },
  item: { path: '/v1/pets/1', method: 'GET' },
  create: {
    path: '/v1/pets',
    method: 'POST',
    body: JSON.stringify({ name: 'Bench', categoryId: 1, status: 'available' }),
  },
};

const { values } = parseArgs({
  options: {
    route: { type: 'string', default: 'item' },
    duration: { type: 'string', default: '8' },
    connections: { type: 'string', default: '20' },
    top: { type: 'string', default: '25' },
    folded: { type: 'string' },
  },
});
const route = ROUTES[values.route];
if (!route) {
  console.error(`bench:profile: --route must be one of ${Object.keys(ROUTES).join(', ')}`);
  process.exit(2);
}

const scratch = path.join(PROFILES, `run-${process.pid}`);
mkdirSync(scratch, { recursive: true });
const kennel = startChild('kennel', process.execPath, [
  '--cpu-prof',
  '--cpu-prof-dir',
  scratch,
  // The flags of bin/kennel.js's shebang, so the profile shows the garbage collection users get.
  ...shebangNodeFlags(),
  path.join(ROOT, 'bin', 'kennel.js'),
  'serve',
  '--port',
  '0',
  '--api-key',
  API_KEY,
  '--log-level',
  'warn',
  '--pets',
  '30',
  // Room for every pet the create route adds: a full store answers 507, which is not the route.
  '--max-pets',
  '1000000',
  '--max-store-bytes',
  '2gb',
  '--max-total-bytes',
  '2gb',
]);
const base = await apiUrl(kennel);
const headers = { authorization: `Bearer ${API_KEY}`, 'content-type': 'application/json' };
const loadStart = Number(process.hrtime.bigint() / 1000n);
const load = await runLoad({
  url: base + route.path,
  method: route.method,
  headers,
  body: route.body,
  connections: Number(values.connections),
  duration: Number(values.duration),
});
process.kill(kennel.pid, 'SIGINT');
await kennel.exited;
const file = readdirSync(scratch).find((name) => name.endsWith('.cpuprofile'));
if (!file) {
  console.error(`bench:profile: kennel wrote no profile\n${kennel.output()}`);
  process.exit(2);
}
const kept = path.join(PROFILES, `${values.route}.cpuprofile`);
renameSync(path.join(scratch, file), kept);
rmSync(scratch, { recursive: true, force: true });
console.log(
  `${route.method} ${route.path}: ${Math.round(load.reqPerSec)} req/s over ${values.connections} connections, ` +
    `statuses ${JSON.stringify(load.statusCodes)}; profile in ${path.relative(ROOT, kept)}`,
);
const profile = JSON.parse(readFileSync(kept, 'utf8'));
console.log(
  `busy (not idle) profile time per request: ${busyMicros(profile, load.requests).toFixed(1)} µs, start-up included`,
);
printTop(profile, Number(values.top));
if (values.folded) {
  writeFileSync(values.folded, `${foldedStacks(profile, { root: ROOT, from: loadStart })}\n`);
  console.log(`folded stacks in ${values.folded}`);
}

/** Sampled time outside (idle), start-up included, over the requests answered. */
function busyMicros(profile, requests) {
  const idle = new Set(profile.nodes.filter((node) => node.callFrame.functionName === '(idle)').map((node) => node.id));
  let busy = 0;
  profile.samples.forEach((id, index) => {
    if (!idle.has(id)) busy += profile.timeDeltas[index] ?? 0;
  });
  return busy / requests;
}

/** The origin of the API URL kennel prints in its banner ("API  http://…"). */
async function apiUrl(child) {
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline) {
    const match = /API\s+(http:\/\/\S+)/.exec(child.output());
    if (match) return new URL(match[1]).origin;
    if (child.exitInfo) break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  console.error(`bench:profile: kennel did not start\n${child.output()}`);
  process.exit(2);
}

/** Self time per function (summed over the nodes of the call tree), the largest first. */
function printTop(profile, top) {
  const interval = new Map();
  profile.samples.forEach((id, index) => {
    interval.set(id, (interval.get(id) ?? 0) + (profile.timeDeltas[index] ?? 0));
  });
  const total = [...interval.values()].reduce((sum, value) => sum + value, 0);
  const byFunction = new Map();
  for (const node of profile.nodes) {
    const { functionName, url, lineNumber } = node.callFrame;
    const where = url ? `${path.relative(ROOT, fileURLToPath(asFileUrl(url)))}:${lineNumber + 1}` : '';
    const key = `${functionName || '(anonymous)'} ${where}`.trim();
    byFunction.set(key, (byFunction.get(key) ?? 0) + (interval.get(node.id) ?? 0));
  }
  const byFile = new Map();
  for (const [key, micros] of byFunction) {
    const file = key.includes(' ') ? key.slice(key.lastIndexOf(' ') + 1).replace(/:\d+$/, '') : key;
    byFile.set(file, (byFile.get(file) ?? 0) + micros);
  }
  const print = (title, map) => {
    console.log(title);
    const rows = [...map.entries()].sort((a, b) => b[1] - a[1]).slice(0, top);
    for (const [name, micros] of rows) console.log(`${((100 * micros) / total).toFixed(1).padStart(5)} %  ${name}`);
  };
  print('self time by function:', byFunction);
  print('self time by file:', byFile);
}

function asFileUrl(url) {
  return url.startsWith('file:') ? url : `file://${url.startsWith('/') ? '' : '/'}${url}`;
}
