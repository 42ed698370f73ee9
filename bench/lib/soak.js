// A short soak: mixed traffic (lists, reads, creates valid and invalid, world and admin reads,
// tenant resets so no store fills) for a fixed time, with the server's RSS sampled throughout.
import { bearer } from './api-client.js';
import { memoryOf } from './children.js';
import { Prng } from './prng.js';

/** The mix: [weight, (rng, ctx) -> {method, path, headers, body}]. */
const MIX = [
  [
    35,
    (rng, ctx) => ({
      method: 'GET',
      path: `/v1/pets?limit=${rng.int(1, 100)}`,
      headers: bearer(rng.pick(ctx.keyList)),
    }),
  ],
  [20, (rng, ctx) => ({ method: 'GET', path: `/v1/pets/${rng.int(1, 60)}`, headers: bearer(rng.pick(ctx.keyList)) })],
  [
    20,
    (rng, ctx) => ({
      method: 'POST',
      path: '/v1/pets',
      headers: bearer(rng.pick(ctx.keyList)),
      json: { name: `soak-${rng.word(8)}`, categoryId: rng.int(1, 10), status: 'available' },
    }),
  ],
  [
    10,
    (rng, ctx) => ({
      method: 'POST',
      path: '/v1/pets',
      headers: bearer(rng.pick(ctx.keyList)),
      json: { name: rng.int(1, 9) },
    }),
  ],
  [5, (rng, ctx) => ({ method: 'GET', path: '/__kennel/world/state', headers: bearer(ctx.admin) })],
  [
    5,
    (rng, ctx) => ({
      method: 'GET',
      path: `/__kennel/world/dns/query?name=example.com&type=${rng.pick(['SOA', 'A', 'CAA'])}`,
      headers: bearer(ctx.admin),
    }),
  ],
  [3, (rng, ctx) => ({ method: 'GET', path: '/__kennel/journal?limit=20', headers: bearer(ctx.admin) })],
  [2, () => ({ method: 'GET', path: '/__kennel/health', headers: {} })],
];
const TOTAL = MIX.reduce((sum, [weight]) => sum + weight, 0);
/** Creates per tenant between resets, far below --max-pets. */
const RESET_EVERY = 2000;

function draw(rng, ctx) {
  let pick = rng.float() * TOTAL;
  const [, make] = MIX.find(([weight]) => (pick -= weight) < 0) ?? MIX[0];
  return make(rng, ctx);
}

/**
 * Runs the mix for `seconds` with `concurrency` lanes; `alive()` stops it early when the server is
 * gone. Resolves {requests, statuses, fiveXx, errors, rss: {startMb, peakMb, endMb, samples}}.
 */
export async function runSoak({ client, ctx, pid, seconds, concurrency, seed, alive }) {
  const rng = new Prng(seed);
  const statuses = {};
  const fiveXxSamples = [];
  let requests = 0;
  let errors = 0;
  const creates = {};
  const samples = [];
  const sample = () => {
    const rss = memoryOf(pid)?.rssMb;
    if (rss !== undefined)
      samples.push({ atS: Number(((performance.now() - started) / 1000).toFixed(1)), rssMb: Number(rss.toFixed(1)) });
  };
  const started = performance.now();
  sample();
  const sampler = setInterval(sample, 500);
  const deadline = started + seconds * 1000;
  const lane = async () => {
    while (performance.now() < deadline && alive()) {
      const request = draw(rng, ctx);
      try {
        const response = request.json
          ? await client.post(request.path, request.json, request.headers)
          : await client.send(request.method, request.path, { headers: request.headers });
        requests += 1;
        statuses[response.status] = (statuses[response.status] ?? 0) + 1;
        if (response.status >= 500 && fiveXxSamples.length < 5)
          fiveXxSamples.push(`${request.method} ${request.path}: ${response.status} ${response.body.slice(0, 120)}`);
        if (request.json && response.status === 201) {
          const key = request.headers.authorization;
          creates[key] = (creates[key] ?? 0) + 1;
          if (creates[key] % RESET_EVERY === 0)
            await client.post('/__kennel/reset', { apiKey: key.slice('Bearer '.length) }, bearer(ctx.admin));
        }
      } catch {
        errors += 1;
      }
    }
  };
  try {
    await Promise.all(Array.from({ length: concurrency }, lane));
  } finally {
    clearInterval(sampler);
  }
  sample();
  const rss = samples.map((entry) => entry.rssMb);
  const fiveXx = Object.entries(statuses).reduce(
    (sum, [status, count]) => sum + (Number(status) >= 500 ? count : 0),
    0,
  );
  return {
    seconds: (performance.now() - started) / 1000,
    requests,
    statuses,
    fiveXx,
    fiveXxSamples,
    errors,
    rss: { startMb: rss[0], peakMb: rss.length ? Math.max(...rss) : undefined, endMb: rss.at(-1), samples },
  };
}
