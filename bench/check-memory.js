// node bench/check-memory.js: the peak memory of a full default `kennel check` run against
// deployments that send too much, compared with a run against `kennel serve`:
//   - every response a 50 MB JSON body, streamed without Content-Length;
//   - every response a gzip bomb (1 GB of zeros, about 1 MB compressed).
// kennel reads at most --max-response-size (10 MB) of any body, counted after decompression, and
// judges each response as it arrives, so the peak must stay near the baseline. Figures go to
// stdout as a table; exit 1 when a run grows more than 150 MB over the baseline.
//
//   node bench/check-memory.js [--operation listPets]
import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { gzipSync } from 'node:zlib';
import { shebangNodeFlags } from './lib/node-flags.js';
import { table } from './lib/report.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const KENNEL = path.join(ROOT, 'bin', 'kennel.js');
const MAX_RSS = path.join(ROOT, 'bench', 'lib', 'max-rss.js');
const GROWTH_LIMIT_MB = 150;

const { values } = parseArgs({ options: { operation: { type: 'string' } } });

function listen(handler) {
  return new Promise((resolve) => {
    const server = createServer(handler);
    server.listen(0, '127.0.0.1', () => resolve(server));
  });
}

/** Writes `chunk` `times` times with backpressure; stops when the client goes away. */
function pump(response, chunk, times) {
  let written = 0;
  let gone = false;
  response.on('close', () => (gone = true));
  const more = () => {
    while (!gone && written < times) {
      written += 1;
      if (!response.write(chunk)) return response.once('drain', more);
    }
    if (!gone) response.end();
  };
  more();
}

function streaming(megabytes) {
  const chunk = Buffer.alloc(64 * 1024, 0x20);
  return listen((request, response) => {
    request.resume();
    response.writeHead(200, { 'content-type': 'application/json' });
    pump(response, chunk, megabytes * 16);
  });
}

function gzipBomb(gigabytes) {
  const member = gzipSync(Buffer.alloc(64 * 1024 * 1024), { level: 9 });
  return listen((request, response) => {
    request.resume();
    response.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
    pump(response, member, gigabytes * 16);
  });
}

/** Runs kennel with the peak-RSS preload; resolves {code, peakMb, requests, seconds, output}. */
function kennel(args) {
  return new Promise((resolve) => {
    const started = performance.now();
    const child = spawn(process.execPath, [...shebangNodeFlags(), '--import', MAX_RSS, KENNEL, ...args], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('exit', (code) => {
      const peak = Number(/kennel-max-rss-kb=(\d+)/.exec(output)?.[1] ?? Number.NaN);
      const requests = Number(/(\d+) requests in/.exec(output)?.[1] ?? Number.NaN);
      resolve({ code, peakMb: peak / 1024, requests, seconds: (performance.now() - started) / 1000, output });
    });
  });
}

async function serveKennel() {
  const probe = await listen(() => undefined);
  const { port } = probe.address();
  await new Promise((resolve) => probe.close(resolve));
  const child = spawn(process.execPath, [KENNEL, 'serve', '--port', String(port), '--api-key', 'bench-key'], {
    stdio: 'ignore',
  });
  return { url: `http://127.0.0.1:${port}/v1`, stop: () => child.kill() };
}

const check = (url) => [
  'check',
  '--base-url',
  url,
  '--api-key',
  'bench-key',
  '--seed',
  '1',
  '--wait-for',
  '10',
  ...(values.operation ? ['--operation', values.operation] : []),
];

const baselineServer = await serveKennel();
const baseline = await kennel(check(baselineServer.url));
baselineServer.stop();
const rows = [['kennel serve (baseline)', baseline]];
for (const [label, start] of [
  ['50 MB streamed bodies', () => streaming(50)],
  ['gzip bombs (1 GB each)', () => gzipBomb(1)],
]) {
  const server = await start();
  rows.push([label, await kennel(check(`http://127.0.0.1:${server.address().port}/v1`))]);
  server.closeAllConnections();
  server.close();
}

console.log(
  table(
    [
      { title: 'deployment' },
      { title: 'exit', right: true },
      { title: 'requests', right: true },
      { title: 'seconds', right: true },
      { title: 'peak RSS MB', right: true },
      { title: 'growth MB', right: true },
    ],
    rows.map(([label, run]) => [
      label,
      run.code,
      run.requests,
      run.seconds.toFixed(1),
      run.peakMb.toFixed(0),
      (run.peakMb - baseline.peakMb).toFixed(0),
    ]),
  ),
);
const failed = rows.filter(([, run]) => !(run.peakMb - baseline.peakMb < GROWTH_LIMIT_MB));
if (failed.length > 0) {
  console.log(`FAIL: more than ${GROWTH_LIMIT_MB} MB over the baseline: ${failed.map(([label]) => label).join(', ')}`);
  process.exitCode = 1;
} else console.log(`PASS: every run within ${GROWTH_LIMIT_MB} MB of the baseline`);
