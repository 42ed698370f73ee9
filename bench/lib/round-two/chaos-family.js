// Chaos delays as a resource to hoard: 6 × 50 requests with `Prefer: delay=60000` that hang up at
// once, then delayed requests from two clients must be delayed, not refused; one client keeping
// its delayed requests open may hold at most half of the slots; and a request without valid
// credentials spends no delay at all.
import http from 'node:http';
import { apiClient, bearer } from '../api-client.js';
import { finding } from './raw.js';
import { spawnServe } from './serve-child.js';

const FAMILY = 'chaos';

function hangUp(origin, key) {
  return new Promise((resolve) => {
    const outgoing = http.request(`${origin}/v1/pets?limit=1`, {
      headers: { ...bearer(key), prefer: 'delay=60000' },
      agent: false,
    });
    outgoing.on('error', () => resolve());
    outgoing.end();
    setTimeout(() => {
      outgoing.destroy();
      resolve();
    }, 30);
  });
}

async function timed(client, headers) {
  const started = performance.now();
  const answer = await client
    .get('/v1/pets?limit=1', headers, { timeout: 70_000 })
    .catch(() => ({ status: 0, body: '' }));
  return { status: answer.status, body: answer.body, ms: performance.now() - started };
}

/** Runs the family; resolves its figures and findings. */
export async function runChaosFamily({ bin, cwd, profile, keys }) {
  const [keyA, keyB] = keys;
  const args = ['--no-world', '--log-level', 'warn', '--api-key', keyA, '--api-key', keyB];
  const kennel = await spawnServe({ bin, cwd, args });
  const client = apiClient(kennel.origin, { maxSockets: 400, timeoutMs: 70_000 });
  const findings = [];
  try {
    for (let round = 0; round < profile.hangUpRounds; round += 1)
      await Promise.all(Array.from({ length: 50 }, () => hangUp(kennel.origin, keyA)));
    await new Promise((resolve) => setTimeout(resolve, 200));
    const afterHangUps = await Promise.all(
      [keyA, keyB, keyA, keyB].map((key) => timed(client, { ...bearer(key), prefer: 'delay=100' })),
    );
    for (const answer of afterHangUps)
      if (answer.status !== 200)
        findings.push(
          finding(FAMILY, 'hoarded', 'after hang-ups', `answered ${answer.status} ${answer.body.slice(0, 120)}`),
        );

    // One client keeps more delayed requests open than its share; the other is still delayed.
    const hog = Array.from({ length: profile.hogRequests }, () =>
      timed(client, { ...bearer(keyA), prefer: 'delay=2500' }),
    );
    await new Promise((resolve) => setTimeout(resolve, 600));
    const other = await timed(client, { ...bearer(keyB), prefer: 'delay=100' });
    if (other.status !== 200)
      findings.push(finding(FAMILY, 'hoarded', 'one client', `the other client got ${other.status}`));
    const hogged = await Promise.all(hog);
    const refusedPastShare = hogged.filter((answer) => answer.status === 503).length;

    const unauthenticated = await Promise.all(
      Array.from({ length: profile.unauthenticated }, () => timed(client, { prefer: 'delay=5000' })),
    );
    const slowRefusals = unauthenticated.filter((answer) => answer.status !== 401 || answer.ms > 1000);
    for (const answer of slowRefusals.slice(0, 3))
      findings.push(
        finding(FAMILY, 'before-auth', 'no key', `answered ${answer.status} after ${Math.round(answer.ms)} ms`),
      );
    return {
      hangUps: profile.hangUpRounds * 50,
      delayedAfterHangUps: afterHangUps.filter((answer) => answer.status === 200).length,
      hogRequests: profile.hogRequests,
      refusedPastShare,
      otherClientStatus: other.status,
      unauthenticated: unauthenticated.length,
      unauthenticatedMaxMs: Math.round(Math.max(...unauthenticated.map((answer) => answer.ms))),
      findings,
    };
  } finally {
    client.close();
    await kennel.stop();
  }
}
