// The second round of attacks (issue 18): the proxy, --data, Redis, reload, chaos and the
// browser-facing admin API. Each family starts the kennels (and upstreams, Redis) it needs and
// returns its figures and findings; a family that cannot run is a finding itself. Two lanes run
// at once: most families wait on timers and sockets, not on the CPU.
import { runAdminFamily } from './admin-family.js';
import { runChaosFamily } from './chaos-family.js';
import { runDataFamily } from './data-family.js';
import { runProxyFamily } from './proxy-family.js';
import { runRedisFamily } from './redis-family.js';
import { runReloadFamily } from './reload-family.js';
import { killServeChildren } from './serve-child.js';

export { killServeChildren };

/** The second round's sizes: quick (inside npm test) and long (what the product team ran). */
export const ROUND_TWO_PROFILES = {
  quick: {
    proxy: { rounds: 2, aborts: 10 },
    data: { cycles: 2, writers: 2, writeMs: [1600, 2400] },
    redis: { sleepS: 4, concurrent: 12, inStep: 10, freezeMs: 0, credentialUrls: 3 },
    reload: { edits: 8, perEdit: 3, delayMs: 400 },
    chaos: { hangUpRounds: 6, hogRequests: 140, unauthenticated: 20 },
  },
  long: {
    proxy: { rounds: 20, aborts: 100 },
    data: { cycles: 20, writers: 8, writeMs: [500, 4000] },
    redis: { sleepS: 12, concurrent: 50, inStep: 50, freezeMs: 6000, credentialUrls: 6 },
    reload: { edits: 200, perEdit: 5, delayMs: 400 },
    chaos: { hangUpRounds: 6, hogRequests: 200, unauthenticated: 100 },
  },
};

export const ROUND_TWO_FAMILIES = ['proxy', 'data', 'redis', 'reload', 'chaos', 'admin'];

const RUNNERS = {
  proxy: runProxyFamily,
  data: runDataFamily,
  redis: runRedisFamily,
  reload: runReloadFamily,
  chaos: runChaosFamily,
  admin: runAdminFamily,
};

/** Runs one family; a failure to run is recorded as a finding, never thrown. */
async function runFamily(name, options, log) {
  const started = performance.now();
  let figures;
  try {
    figures = await RUNNERS[name]({ ...options, profile: options.profiles[name] });
  } catch (error) {
    figures = {
      findings: [
        { family: name, kind: 'could-not-run', variant: name, detail: String(error?.message ?? error).slice(0, 500) },
      ],
    };
  }
  figures.seconds = Number(((performance.now() - started) / 1000).toFixed(2));
  log(
    `round two: ${name} in ${figures.seconds} s, ${figures.findings.length} finding(s)${figures.skipped ? ` (skipped: ${figures.skipped})` : ''}`,
  );
  return [name, figures];
}

/**
 * Runs the families (`only` limits them) and resolves {families: {name: figures}, findings}.
 * `keys` are API keys (at least four), `adminToken` a token; `profiles` one of ROUND_TWO_PROFILES.
 */
export async function runRoundTwo({ bin, cwd, keys, adminToken, profiles, only, log }) {
  const chosen = ROUND_TWO_FAMILIES.filter((name) => !only || only.includes(name));
  const options = { bin, cwd, keys, adminToken, profiles };
  const first = new Set(['redis', 'admin', 'reload']);
  const lanes = [chosen.filter((name) => first.has(name)), chosen.filter((name) => !first.has(name))];
  const results = await Promise.all(
    lanes.map(async (lane) => {
      const done = [];
      for (const name of lane) done.push(await runFamily(name, options, log));
      return done;
    }),
  );
  const families = Object.fromEntries(results.flat());
  return { families, findings: Object.values(families).flatMap((figures) => figures.findings) };
}
