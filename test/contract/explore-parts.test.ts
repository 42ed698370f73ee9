// The pure parts of exploration: the value pool, slot fitting, search combinations, payloads and
// next-page steps, each on small inputs.
import { describe, expect, it } from 'vitest';
import { combinations } from '../../src/contract/run/explore.js';
import { nextStep } from '../../src/contract/prepare/next-page.js';
import { payloadOf } from '../../src/contract/prepare/payload.js';
import type { PlannedOperation } from '../../src/contract/prepare/plan.js';
import { fitsSlot } from '../../src/contract/prepare/reference-values.js';
import type { Exchange, RequestSpec } from '../../src/contract/types.js';
import { ValuePool } from '../../src/contract/prepare/value-pool.js';
import type { NextPage } from '../../src/openapi/pagination.js';

describe('the value pool', () => {
  const trips = { path: '/trips', key: { property: 'id', kind: 'integer', assignedBy: 'server' } as const };

  it('keeps each value once, in the order seen, by resource property and by name', () => {
    const pool = new ValuePool();
    pool.learn(trips, [{ id: 1, origin: 'a' }, { id: 2, origin: 'a' }, 'not an item', { id: 1 }]);
    expect(pool.ids('/trips')).toEqual([1, 2]);
    expect(pool.values('/trips', 'origin')).toEqual(['a']);
    expect(pool.named('origin')).toEqual(['a']);
    expect(pool.observed.get('id')).toEqual([1, 2]);
    expect(pool.ids('/nothing')).toEqual([]);
  });

  it('forgets a deleted key, whether the path gave it as text or the item as a number', () => {
    const pool = new ValuePool();
    pool.learn(trips, [{ id: 7 }, { id: 8 }]);
    pool.forget(trips, '7');
    expect(pool.ids('/trips')).toEqual([8]);
    pool.learn(trips, [{ id: 7 }]);
    expect(pool.ids('/trips')).toEqual([8, 7]);
  });

  it('keeps at most 50 values of a property that is not the key', () => {
    const pool = new ValuePool();
    pool.learn(
      trips,
      Array.from({ length: 80 }, (_, index) => ({ id: index, note: `n${index}` })),
    );
    expect(pool.values('/trips', 'note')).toHaveLength(50);
    expect(pool.ids('/trips')).toHaveLength(80);
  });
});

describe('a value fits the slot it would fill', () => {
  it.each([
    ['37', { type: 'string', format: 'uuid' }, true, false],
    ['6f1c1d0e-2b7a-4d55-9a0c-1f3e2d4c5b6a', { type: 'string', format: 'uuid' }, false, true],
    [7, { type: 'string' }, false, false],
    [7, { type: 'string' }, true, true],
    ['7', { type: 'integer' }, true, true],
    ['7', { type: 'integer' }, false, false],
    [7.5, { type: 'integer' }, false, false],
    [0, { type: 'integer', minimum: 1 }, false, false],
    ['FR', { type: 'string', pattern: '^[A-Z]{2}$' }, false, true],
    ['France', { type: 'string', pattern: '^[A-Z]{2}$' }, false, false],
    ['b', { enum: ['a', 'b'] }, false, true],
    ['c', { enum: ['a', 'b'] }, false, false],
    ['toolong', { type: 'string', maxLength: 3 }, false, false],
  ])('%j in %j (as text: %s) → %s', (value, schema, asText, fits) => {
    expect(fitsSlot(value, schema, asText)).toBe(fits);
  });
});

describe('search combinations', () => {
  it('tries the first candidates of every slot first, then walks outwards', () => {
    expect(
      combinations(
        [
          ['a', 'b'],
          ['x', 'y'],
        ],
        10,
      ),
    ).toEqual([
      ['a', 'x'],
      ['a', 'y'],
      ['b', 'x'],
      ['b', 'y'],
    ]);
    expect(
      combinations(
        [
          ['a', 'b', 'c'],
          ['x', 'y', 'z'],
        ],
        3,
      ),
    ).toEqual([
      ['a', 'x'],
      ['a', 'y'],
      ['b', 'x'],
    ]);
    expect(combinations([], 5)).toEqual([[]]);
  });
});

describe('payloads', () => {
  it('takes items out of their envelope and an item out of its wrapper; anything else as it is', () => {
    expect(payloadOf({ payload: { items: 'data' } }, { data: [1], links: {} })).toEqual([1]);
    expect(payloadOf({ payload: { items: 'data' } }, { data: 'no' })).toEqual({ data: 'no' });
    expect(payloadOf({ payload: { item: 'data' } }, { data: { id: 1 } })).toEqual({ id: 1 });
    expect(payloadOf({ payload: { item: 'data' } }, { id: 1 })).toEqual({ id: 1 });
    expect(payloadOf({ payload: {} }, [1])).toEqual([1]);
  });
});

describe('the next page', () => {
  const list = (next: NextPage, extra: Partial<PlannedOperation> = {}) =>
    ({
      payload: { items: 'data' },
      idProperty: 'id',
      limit: { name: 'limit', minimum: 1, minimumDocumented: true, maximum: 50, default: 2 },
      list: {
        pagination: { next, parameter: { name: 'page', kind: 'page', first: 1 }, fields: [], linkHeader: false },
      },
      ...extra,
    }) as unknown as PlannedOperation;
  const answer = (body: unknown, headers: Record<string, string> = {}, url = 'http://api.test/v1/things?limit=2') =>
    ({
      request: { method: 'GET', url, headers: {} },
      response: { status: 200, headers, text: '', json: { ok: true, value: body } },
    }) as unknown as Exchange;
  const request = { query: { limit: '2' } } as unknown as RequestSpec;

  it('follows a body link, relative to the request, moved to the tested origin when it names another', () => {
    const next: NextPage = { kind: 'link', path: ['links', 'next'] };
    expect(nextStep(list(next), answer({ data: [], links: { next: '?page=2' } }), request)).toMatchObject({
      kind: 'url',
      url: 'http://api.test/v1/things?page=2',
      foreign: false,
    });
    expect(
      nextStep(list(next), answer({ data: [], links: { next: 'https://public.example/v1/things?page=2' } }), request),
    ).toMatchObject({ kind: 'url', url: 'http://api.test/v1/things?page=2', foreign: true });
    for (const end of [null, '', undefined])
      expect(nextStep(list(next), answer({ data: [], links: { next: end } }), request)).toEqual({ kind: 'end' });
  });

  it('reads the Link header, sends a token back, goes after the last id while has_more', () => {
    const header = '<http://api.test/v1/things?page=2>; rel="next", <http://api.test/v1/things?page=1>; rel="first"';
    expect(nextStep(list({ kind: 'header' }), answer([], { link: header }), request)).toMatchObject({
      url: 'http://api.test/v1/things?page=2',
    });
    expect(nextStep(list({ kind: 'header' }), answer([]), request)).toEqual({ kind: 'end' });
    const token: NextPage = { kind: 'token', path: ['next_cursor'], parameter: 'cursor' };
    expect(nextStep(list(token), answer({ data: [], next_cursor: 'abc' }), request)).toEqual({
      kind: 'query',
      query: { limit: '2', cursor: 'abc' },
    });
    const after: NextPage = { kind: 'after-last', flag: ['has_more'], parameter: 'starting_after' };
    expect(nextStep(list(after), answer({ data: [{ id: 4 }, { id: 9 }], has_more: true }), request)).toEqual({
      kind: 'query',
      query: { limit: '2', starting_after: '9' },
    });
    expect(nextStep(list(after), answer({ data: [{ id: 4 }], has_more: false }), request)).toEqual({ kind: 'end' });
  });

  it('counts pages on while they come back full', () => {
    const counter: NextPage = { kind: 'counter', parameter: 'page', step: 'page' };
    expect(nextStep(list(counter), answer({ data: [{}, {}] }), request)).toEqual({
      kind: 'query',
      query: { limit: '2', page: '2' },
    });
    expect(nextStep(list(counter), answer({ data: [{}] }), request)).toEqual({ kind: 'end' });
    const offset: NextPage = { kind: 'counter', parameter: 'offset', step: 'offset' };
    const second = { query: { limit: '2', offset: '2' } } as unknown as RequestSpec;
    expect(nextStep(list(offset), answer({ data: [{}, {}] }), second)).toEqual({
      kind: 'query',
      query: { limit: '2', offset: '4' },
    });
  });
});

describe('validRequest fills references from what the deployment showed, and says which it could not', () => {
  it('books a departure the run has seen; without one, names the slot it invented', async () => {
    const { loadDocument } = await import('../../src/openapi/load.js');
    const { buildPlan } = await import('../../src/contract/prepare/plan.js');
    const { validRequest } = await import('../../src/contract/checks/valid-request.js');
    const { Random } = await import('../../src/core/random.js');
    const { COACHLINE_SPECS } = await import('./coachline-server.js');
    const plan = buildPlan(await loadDocument(COACHLINE_SPECS.envelope));
    const state = { created: new Map(), pool: new ValuePool(), workingQueries: new Map(), issuedIds: new Map() };
    const context = (id: string) => {
      const operation = plan.all.find((candidate) => candidate.id === id)!;
      const settings = { namePrefix: 'kennel-test' } as never;
      return { plan, operation, send: undefined as never, random: new Random(3), state, settings };
    };
    const booking = context('createBooking');
    expect(validRequest(booking, booking.operation, 'a booking').unresolvedReferences).toEqual(['body /departure_id']);
    const search = context('searchDepartures');
    expect(validRequest(search, search.operation, 'a search').unresolvedReferences).toEqual([
      'query origin',
      'query destination',
    ]);
    const departures = plan.model.resources.find((resource) => resource.path === '/departures')!;
    const departure = '5e7a0002-0000-4002-a000-000000000000';
    state.pool.learn(departures, [{ id: departure }]);
    const booked = validRequest(booking, booking.operation, 'a booking');
    expect(booked.unresolvedReferences).toEqual([]);
    expect(booked.body).toEqual({ value: expect.objectContaining({ departure_id: departure }) });
  });
});
