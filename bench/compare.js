// A/B of two kennel checkouts on this machine: `node bench/compare.js OLD_DIR NEW_DIR`.
// Both serve side by side (the same flags, no domain world); autocannon loads one at a time, the
// order alternating per round; the first round of each route is a dropped warm-up; medians compare.
// Each directory needs its own `npm ci` (or node_modules) and a built dist/.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { runLoad } from './lib/load.js';
import { shebangNodeFlags } from './lib/node-flags.js';

const ROUNDS = 5;
const API_KEY = 'bench-key';
const ROUTES = [
  { name: 'GET /v1/pets', path: '/v1/pets' },
  { name: 'GET /v1/pets/1', path: '/v1/pets/1' },
  { name: 'POST /v1/pets', path: '/v1/pets', method: 'POST', body: '{"name":"Rex","categoryId":1}' },
];

/** `kennel serve` of checkout `dir` on `port`, with the Node of its own node_modules. */
function serve(dir, port) {
  const bin = path.join(dir, 'node_modules/.bin');
  const bin = path.join(dir, 'bin/kennel.js');
  const args = [...shebangNodeFlags(bin), bin, 'serve', '--port', String(port)];
  args.push('--api-key', API_KEY, '--log-level', 'warn', '--pets', '30', '--max-pets', '1000000', '--no-world');
  return spawn(path.join(bin, 'node'), args, {
    stdio: 'ignore',
    env: { ...process.env, PATH: `${bin}:${process.env.PATH}` },
  });
}

async function waitUntilUp(port) {
  for (let tries = 0; tries < 100; tries++) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/__kennel/health`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`kennel on port ${port} did not start`);
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

async function main([oldDir, newDir]) {
  if (!oldDir || !newDir) throw new Error('usage: node bench/compare.js OLD_DIR NEW_DIR');
  const targets = [
    { id: 'old', port: 4591, child: serve(path.resolve(oldDir), 4591) },
    { id: 'new', port: 4592, child: serve(path.resolve(newDir), 4592) },
  ];
  try {
    await Promise.all(targets.map((target) => waitUntilUp(target.port)));
    for (const route of ROUTES) {
      const rates = { old: [], new: [] };
      for (let round = 0; round < ROUNDS; round++) {
        for (const target of round % 2 ? [...targets].reverse() : targets) {
          const headers = { authorization: `Bearer ${API_KEY}`, 'content-type': 'application/json' };
          const url = `http://127.0.0.1:${target.port}${route.path}`;
          const result = await runLoad({ ...route, url, headers, connections: 50, duration: 4 });
          if (round > 0) rates[target.id].push(result.reqPerSec);
        }
      }
      const [before, after] = [median(rates.old), median(rates.new)];
      console.log(
        `${route.name}: old ${Math.round(before)} new ${Math.round(after)} req/s, new/old ${(after / before).toFixed(3)}`,
      );
    }
  } finally {
    for (const target of targets) target.child.kill();
  }
}

main(process.argv.slice(2)).catch((error) => {
  console.error(`compare: ${error.message}`);
  process.exitCode = 2;
});
