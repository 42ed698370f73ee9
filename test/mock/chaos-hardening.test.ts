// Issue 18, item 7: chaos delays as a resource a client can hoard. Real connections: a client that
// hangs up gives its slot back at once, one client cannot hold every slot, and no delay (or fault)
// is spent on a request that fails authentication.
import { request as httpRequest } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import type { ChaosSettings } from '../../src/mock/chaos/chaos-types.js';
import { OTHER_KEY, startTestMock, TEST_KEY, type TestMock } from '../helpers/mock-client.js';
import { requestsArrive, waitUntil } from '../helpers/wait.js';

const mocks: TestMock[] = [];
afterEach(async () => {
  await Promise.all(mocks.splice(0).map((mock) => mock.close()));
});

async function mockWith(chaos: ChaosSettings): Promise<TestMock> {
  const mock = await startTestMock({ chaos, world: false });
  mocks.push(mock);
  return mock;
}

/**
 * Sends `count` GETs delayed by `delay` and hangs up on each once the server holds them all (its
 * app has them, and takes their delay slots before it reads the sockets again).
 */
async function hangUpOnHeld(mock: TestMock, key: string, delay: string, count: number): Promise<void> {
  const held = requestsArrive(Number(new URL(mock.url).port), count);
  const requests = Array.from({ length: count }, () => {
    const outgoing = httpRequest(`${mock.url}/pets?limit=1`, {
      headers: { authorization: `Bearer ${key}`, prefer: `delay=${delay}` },
    });
    outgoing.on('error', () => undefined);
    outgoing.end();
    return outgoing;
  });
  await held;
  for (const outgoing of requests) outgoing.destroy();
}

async function timedGet(mock: TestMock, headers: Record<string, string | null>) {
  const started = performance.now();
  const exchange = await mock.request('GET', '/pets?limit=1', { headers });
  return { status: exchange.status, code: exchange.body?.code as string | undefined, ms: performance.now() - started };
}

describe('chaos delays cannot be hoarded', () => {
  it('a client that hangs up gives its slot back at once (6 × 50 hang-ups, then a delayed request is delayed)', async () => {
    const mock = await mockWith({ rules: [] });
    for (let round = 0; round < 6; round += 1) await hangUpOnHeld(mock, TEST_KEY, '60000', 50);
    // The server has seen the clients go once the journal (the latest 200 exchanges) holds their
    // hang-ups (status 0; at least 190, as asserted below).
    const hangUpsJournalled = async (): Promise<number> =>
      ((await mock.request('GET', '/__kennel/journal')).body.entries as { status: number }[]).filter(
        (entry) => entry.status === 0,
      ).length;
    await waitUntil(
      async () => (await hangUpsJournalled()) >= 190,
      () => 'the journal to hold the hang-ups',
    );
    for (const key of [TEST_KEY, OTHER_KEY]) {
      const after = await timedGet(mock, { authorization: `Bearer ${key}`, prefer: 'delay=100' });
      expect(after.status, `${key}: ${after.code}`).toBe(200);
      expect(after.ms).toBeGreaterThanOrEqual(95);
    }
    // The requests that went away were answered to no one: the journal says 0, and nothing ran.
    // (The journal keeps the latest 200 exchanges: the two answered ones and 198 that went away.)
    const journal = (await mock.request('GET', '/__kennel/journal')).body.entries as { status: number }[];
    expect(journal.filter((entry) => entry.status === 0).length).toBeGreaterThanOrEqual(190);
  }, 30_000);

  it('one client holds at most half of the slots: another client is still delayed, not refused', async () => {
    const mock = await mockWith({ rules: [], maxHeld: 4 });
    const hog = { authorization: `Bearer ${TEST_KEY}`, prefer: 'delay=1500' };
    const arrived = requestsArrive(Number(new URL(mock.url).port), 2);
    const hogging = [1, 2].map(() => timedGet(mock, hog));
    await arrived;
    const third = await timedGet(mock, hog);
    expect([third.status, third.code]).toEqual([503, 'chaos_overloaded']);
    expect(third.ms).toBeLessThan(1_000);
    const other = await timedGet(mock, { authorization: `Bearer ${OTHER_KEY}`, prefer: 'delay=200' });
    expect(other.status).toBe(200);
    expect(other.ms).toBeGreaterThanOrEqual(195);
    expect((await Promise.all(hogging)).map((answer) => answer.status)).toEqual([200, 200]);
  });
});

describe('chaos applies after authentication', () => {
  it.each([
    ['no credentials', { authorization: null }],
    ['a wrong key', { authorization: 'Bearer not-a-key' }],
  ])('Prefer: delay with %s is a 401 at once, holding no slot', async (_name, headers) => {
    const mock = await mockWith({ rules: [], maxHeld: 2 });
    const answers = await Promise.all(
      Array.from({ length: 5 }, () => timedGet(mock, { ...headers, prefer: 'delay=2000' })),
    );
    for (const answer of answers) {
      expect(answer.status).toBe(401);
      expect(answer.ms).toBeLessThan(1_000);
    }
    expect((await timedGet(mock, { prefer: 'delay=100' })).status).toBe(200);
  });

  it('a latency and fault table leaves unauthenticated requests alone: their 401 is the answer', async () => {
    const mock = await mockWith({
      rules: [
        { match: '*', latency: { kind: 'fixed', ms: 2000 }, fault: { kind: 'status', status: 503 }, probability: 1 },
      ],
    });
    const refused = await timedGet(mock, { authorization: null });
    expect(refused.status).toBe(401);
    expect(refused.ms).toBeLessThan(1_000);
  });
});
