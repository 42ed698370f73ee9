// `kennel serve --store redis://` with a slow Redis (DEBUG SLEEP) and a frozen one (SIGSTOP): every
// request that needs the store answers 503 store_unavailable with Retry-After within the 3 s
// bound, and once Redis answers again every reply belongs to its own request. And no start-up
// that fails prints the password of the URL it was given.
import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { apiClient, bearer } from '../api-client.js';
import { startBenchRedis } from '../redis.js';
import { finding } from './raw.js';
import { spawnServe } from './serve-child.js';

const FAMILY = 'redis';
/** The documented bound (docs/hardening.md), and what a loaded machine may add to it. */
const BOUND_MS = 3000;
const SLACK_MS = 1000;
const PASSWORD = 'S3cretReliability';
const BAD_URLS = [
  `redis://:${PASSWORD}@127.0.0.1:99999`,
  `redis://admin:${PASSWORD}@[::1:6379`,
  `http://admin:${PASSWORD}@127.0.0.1:6379`,
  `redis://admin:${PASSWORD}@127.0.0.1:6379/abc`,
  `unix://admin:${PASSWORD}@`,
  `redis://admin:${PASSWORD}@127.0.0.1:1`,
];

/** Sends one inline command and does not wait for its reply (DEBUG SLEEP answers when it wakes). */
function fireAndForget(socket, command) {
  const connection = net.connect(socket);
  connection.on('error', () => {});
  connection.on('connect', () => connection.write(`${command}\r\n`));
  setTimeout(() => connection.destroy(), 15_000).unref();
}

/** `count` concurrent store requests while Redis stalls: each must be a 503 with Retry-After in time. */
async function duringStall(client, key, count, label, findings) {
  const answers = await Promise.all(
    Array.from({ length: count }, async (_item, index) => {
      const started = performance.now();
      const path = index % 2 === 0 ? '/v1/pets?limit=5' : `/v1/pets/${1 + (index % 20)}`;
      const answer = await client.get(path, bearer(key), { timeout: 15_000 }).catch((error) => ({ status: 0, error }));
      return { ...answer, ms: performance.now() - started };
    }),
  );
  for (const answer of answers) {
    const code = answer.status === 503 ? JSON.parse(answer.body).code : undefined;
    if (answer.status !== 503 || code !== 'store_unavailable' || !answer.headers['retry-after'])
      findings.push(finding(FAMILY, 'stall', label, `answered ${answer.status} ${code ?? answer.error?.code ?? ''}`));
    else if (answer.ms > BOUND_MS + SLACK_MS)
      findings.push(finding(FAMILY, 'stall', label, `503 only after ${Math.round(answer.ms)} ms`));
  }
  return Math.max(...answers.map((answer) => answer.ms));
}

/** Once Redis answers again: creates and reads, one after the other, each reply its own request's. */
async function inStep(client, key, rounds, findings) {
  for (let attempt = 0; attempt < 100; attempt += 1) {
    if ((await client.get('/v1/pets?limit=1', bearer(key)).catch(() => ({ status: 0 }))).status === 200) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  let outOfStep = 0;
  for (let index = 0; index < rounds; index += 1) {
    const name = `InStep${index}`;
    const made = await client.post('/v1/pets', { name, categoryId: 1 }, bearer(key));
    const pet = made.status === 201 ? JSON.parse(made.body) : undefined;
    const read = pet ? await client.get(`/v1/pets/${pet.id}`, bearer(key)) : undefined;
    const back = read?.status === 200 ? JSON.parse(read.body) : undefined;
    if (!pet || back?.id !== pet.id || back?.name !== name) {
      outOfStep += 1;
      findings.push(
        finding(FAMILY, 'out-of-step', name, `create ${made.status}, read ${read?.status} ${read?.body.slice(0, 80)}`),
      );
    }
  }
  return outOfStep;
}

/** Start-ups with a password in a bad or unreachable URL: exit 2, the password nowhere. */
async function credentials(bin, cwd, limit, findings) {
  let printed = 0;
  for (const url of BAD_URLS.slice(0, limit))
    for (const [args, env] of [
      [['--no-world', '--store', url], {}],
      [['--no-world'], { KENNEL_STORE: url }],
    ]) {
      const started = await spawnServe({ bin, cwd, args, env, secrets: [PASSWORD] });
      if (started.origin) await started.stop();
      const leaked = started.scanned().secretLines > 0 || started.output().includes(PASSWORD);
      if (leaked || started.exit?.code !== 2) {
        printed += leaked ? 1 : 0;
        findings.push(
          finding(
            FAMILY,
            leaked ? 'secret-printed' : 'start-up',
            url.replace(PASSWORD, '<password>'),
            `exit ${started.exit?.code}`,
          ),
        );
      }
    }
  return { tried: Math.min(limit, BAD_URLS.length) * 2, printed };
}

/** Runs the family (skipped without redis-server); resolves its figures and findings. */
export async function runRedisFamily({ bin, cwd, profile, keys }) {
  const folder = mkdtempSync(path.join(tmpdir(), 'kennel-reliability-redis-'));
  const redis = await startBenchRedis(folder, { debug: true });
  if (redis.skip) {
    rmSync(folder, { recursive: true, force: true });
    return { skipped: redis.skip, findings: [] };
  }
  const findings = [];
  const key = keys[0];
  const kennel = await spawnServe({
    bin,
    cwd,
    args: ['--no-world', '--log-level', 'warn', '--store', redis.url, '--api-key', key],
  });
  const client = apiClient(kennel.origin, { timeoutMs: 15_000 });
  try {
    fireAndForget(redis.socket, `DEBUG SLEEP ${profile.sleepS}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
    const sleepMaxMs = await duringStall(client, key, profile.concurrent, 'DEBUG SLEEP', findings);
    const afterSleep = await inStep(client, key, profile.inStep, findings);
    let frozenMaxMs;
    let afterFreeze = 0;
    if (profile.freezeMs > 0) {
      process.kill(redis.pid, 'SIGSTOP');
      try {
        frozenMaxMs = await duringStall(client, key, profile.concurrent, 'SIGSTOP', findings);
        await new Promise((resolve) => setTimeout(resolve, Math.max(0, profile.freezeMs - frozenMaxMs)));
      } finally {
        process.kill(redis.pid, 'SIGCONT');
      }
      afterFreeze = await inStep(client, key, profile.inStep, findings);
    }
    const secrets = await credentials(bin, cwd, profile.credentialUrls, findings);
    const scanned = kennel.scanned();
    return {
      boundMs: BOUND_MS,
      sleepMaxMs: Math.round(sleepMaxMs),
      frozenMaxMs: frozenMaxMs === undefined ? undefined : Math.round(frozenMaxMs),
      requestsDuringStalls: profile.concurrent * (profile.freezeMs > 0 ? 2 : 1),
      outOfStep: afterSleep + afterFreeze,
      credentialStartups: secrets.tried,
      secretsPrinted: secrets.printed,
      log: scanned,
      findings,
    };
  } finally {
    client.close();
    await kennel.stop();
    await redis.stop();
    rmSync(folder, { recursive: true, force: true });
  }
}
