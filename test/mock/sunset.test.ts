import { afterEach, describe, expect, it } from 'vitest';
import { expectErrorBody, startTestMock, type TestMock } from '../helpers/mock-client.js';

const SUNSET = 'Thu, 05 Dec 2030 00:00:00 GMT';
const AFTER = Date.parse('2030-12-06T00:00:00Z');
const BEFORE = Date.parse('2030-12-04T23:59:00Z');

const mocks: TestMock[] = [];
afterEach(async () => {
  await Promise.all(mocks.splice(0).map((mock) => mock.close()));
});

async function mockAt(options: Parameters<typeof startTestMock>[0] = {}): Promise<TestMock> {
  const mock = await startTestMock(options);
  mocks.push(mock);
  return mock;
}

function expectGone(exchange: Awaited<ReturnType<TestMock['request']>>): void {
  expect(exchange.status).toBe(410);
  expectErrorBody(exchange);
  expect(exchange.body.code).toBe('gone');
  expect(exchange.body.message).toBe(
    'GET /v1/pets/{petId} (getPet) was removed on 2030-12-05; use GET /v1/pets (listPets: GET /pets with a status filter)',
  );
  expect(exchange.headers.get('link')).toBe('</v1/pets>; rel="successor-version"');
  expect(exchange.headers.get('sunset')).toBe(SUNSET);
}

describe('getPet before and after its sunset (x-sunset: 2030-12-05)', () => {
  it('before the sunset (the real clock, or a now just before): 200 with Sunset, no made-up Deprecation date', async () => {
    for (const now of [undefined, BEFORE]) {
      const mock = await mockAt({ now });
      const exchange = await mock.request('GET', '/pets/1');
      expect(exchange.status).toBe(200);
      // The document gives no date of deprecation: none is invented (not 1970's @0).
      expect(exchange.headers.get('deprecation')).toBeNull();
      expect(exchange.headers.get('sunset')).toBe(SUNSET);
    }
  });

  it('with --now past the sunset: 410 Gone naming the removal and the successor, Link and Sunset kept', async () => {
    const mock = await mockAt({ now: AFTER });
    expectGone(await mock.request('GET', '/pets/1'));
    // Removed before anything else is looked at: no key, no such pet, still gone.
    expect((await mock.request('GET', '/pets/999', { headers: { authorization: null } })).status).toBe(410);
    // The successor and the other operations answer as before.
    expect((await mock.request('GET', '/pets?limit=1')).status).toBe(200);
  });

  it('the sunset instant itself is already after: the removal day answers 410', async () => {
    const mock = await mockAt({ now: Date.parse('2030-12-05T00:00:00Z') });
    expect((await mock.request('GET', '/pets/1')).status).toBe(410);
  });

  it('--after-sunset keep answers as before, headers included', async () => {
    const mock = await mockAt({ now: AFTER, afterSunset: 'keep' });
    const exchange = await mock.request('GET', '/pets/1');
    expect(exchange.status).toBe(200);
    expect(exchange.headers.get('sunset')).toBe(SUNSET);
  });

  it('a preference given twice counts once, the first (RFC 7240 §2)', async () => {
    const mock = await mockAt();
    const twice = await mock.request('GET', '/pets/1', { headers: { prefer: 'now=2030-12-06, now=2030-01-01' } });
    expectGone(twice);
    expect(twice.headers.get('preference-applied')).toBe('now=2030-12-06');
    const reversed = await mock.request('GET', '/pets/1', { headers: { prefer: 'now=2030-01-01; now=2030-12-06' } });
    expect(reversed.status).toBe(200);
    expect(reversed.headers.get('preference-applied')).toBe('now=2030-01-01');
  });

  it('Prefer: now=… moves one request in time, and says so', async () => {
    const mock = await mockAt();
    const gone = await mock.request('GET', '/pets/1', { headers: { prefer: 'now=2030-12-06' } });
    expectGone(gone);
    expect(gone.headers.get('preference-applied')).toBe('now=2030-12-06');
    const before = await mock.request('GET', '/pets/1', { headers: { prefer: 'now=2030-12-04T12:00:00+01:00' } });
    expect(before.status).toBe(200);
    expect(before.headers.get('preference-applied')).toBe('now=2030-12-04T12:00:00+01:00');
    expect((await mock.request('GET', '/pets/1')).status).toBe(200);
    // Back in time on a mock living after the sunset.
    const later = await mockAt({ now: AFTER });
    expect((await later.request('GET', '/pets/1', { headers: { prefer: 'now=2030-01-01' } })).status).toBe(200);
  });

  it.each(['now=tomorrow', 'now=2030-02-30', 'now=2030-12-06T10:00:00'])(
    'Prefer: %s is a 400 invalid_prefer',
    async (prefer) => {
      const mock = await mockAt();
      const exchange = await mock.request('GET', '/pets/1', { headers: { prefer } });
      expect(exchange.status).toBe(400);
      expect(exchange.body.code).toBe('invalid_prefer');
    },
  );
});

describe('the admin API for now (/__kennel/now)', () => {
  it('PUT sets a virtual now that runs on, DELETE returns to the real clock', async () => {
    const mock = await mockAt();
    const real = await mock.request('GET', '/__kennel/now');
    expect(real.body.virtual).toBe(false);
    expect(Math.abs(Date.parse(real.body.now) - Date.now())).toBeLessThan(60_000);
    const put = await mock.request('PUT', '/__kennel/now', { body: { now: '2030-12-06' } });
    expect(put.status).toBe(200);
    expect(put.body.virtual).toBe(true);
    expect(Date.parse(put.body.now)).toBeGreaterThanOrEqual(AFTER);
    expectGone(await mock.request('GET', '/pets/1'));
    const reset = await mock.request('DELETE', '/__kennel/now');
    expect(reset.body.virtual).toBe(false);
    expect((await mock.request('GET', '/pets/1')).status).toBe(200);
  });

  it.each([{ now: 'soon' }, { now: 20301206 }, { when: '2030-12-06' }, ['2030-12-06']])(
    'PUT %j is a 400 and now stays',
    async (body) => {
      const mock = await mockAt();
      const exchange = await mock.request('PUT', '/__kennel/now', { body: body as object });
      expect(exchange.status).toBe(400);
      expectErrorBody(exchange);
      expect((await mock.request('GET', '/__kennel/now')).body.virtual).toBe(false);
    },
  );

  it.each([
    [{ now: '2030-12-06T09:30:00+25:00' }, /\/now: "2030-12-06T09:30:00\+25:00" is not a real instant/],
    [{ now: '1970-01-01T00:00:00+01:00' }, /\/now: "1970-01-01T00:00:00\+01:00" is not a real instant from 1970 on/],
    [{}, /\/now: is required/],
  ])('PUT %j is a 400 whose message says why', async (body, message) => {
    const mock = await mockAt();
    const exchange = await mock.request('PUT', '/__kennel/now', { body });
    expect(exchange.status).toBe(400);
    expect(exchange.body.message).toMatch(message);
    expect((await mock.request('GET', '/__kennel/now')).body.virtual).toBe(false);
  });

  it('honours the admin token', async () => {
    const mock = await mockAt({ adminToken: 'admin-secret' });
    expect((await mock.request('PUT', '/__kennel/now', { body: { now: '2030-12-06' } })).status).toBe(401);
    expect((await mock.request('GET', '/pets/1')).status).toBe(200);
  });
});
