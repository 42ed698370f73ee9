import { describe, expect, it } from 'vitest';
import { FINDING_BOUNDS, FindingSet, findingKey, normalisePointer } from '../../src/contract/run/findings.js';
import type { PlannedOperation } from '../../src/contract/prepare/plan.js';
import type { CheckFailure, Exchange } from '../../src/contract/types.js';

const listPets = { id: 'listPets' } as PlannedOperation;
const getPet = { id: 'getPet' } as PlannedOperation;

function exchange(operation: PlannedOperation, status: number | undefined, text = '[]', error?: string): Exchange {
  return {
    operation,
    intent: 'valid',
    purpose: `${operation.id} request`,
    request: { method: 'GET', url: 'http://x/v1/pets', headers: {} },
    ...(status !== undefined
      ? { response: { status, headers: {}, text, json: { ok: true, value: JSON.parse(text) } } }
      : { error }),
    durationMs: 1,
  };
}

function schemaFailure(pointer: string, status = 200, message = 'must be integer'): CheckFailure {
  return {
    check: 'response-schema-conformance',
    operationId: 'listPets',
    severity: 'error',
    title: `${status} body: ${pointer} ${message}`,
    pointer,
    exchange: exchange(listPets, status, '[{"id":"1"},{"id":"2"}]'),
  };
}

describe('normalisePointer', () => {
  it.each([
    ['/0/id', '/*/id'],
    ['/12/tags/3', '/*/tags/*'],
    ['/id', '/id'],
    ['', ''],
    ['/a1/2b', '/a1/2b'],
  ])('%j → %j', (pointer, expected) => expect(normalisePointer(pointer)).toBe(expected));
});

describe('unique findings', () => {
  it('one fault split by array index is one finding, with a count and the first example', () => {
    const set = new FindingSet();
    for (let index = 0; index < 101; index += 1) set.add(schemaFailure(`/${index}/id`));
    expect(set.findings).toHaveLength(1);
    expect(set.failures).toBe(101);
    expect(set.findings[0]).toMatchObject({
      occurrences: 101,
      pointer: '/0/id',
      pointerPattern: '/*/id',
      found: '"1"',
    });
  });

  it.each([
    ['another pointer', schemaFailure('/0/name')],
    ['another status', schemaFailure('/0/id', 201)],
    ['another severity', { ...schemaFailure('/0/id'), severity: 'warning' as const }],
    ['another check', { ...schemaFailure('/0/id'), check: 'error-body-conformance' }],
    ['another case operation', { ...schemaFailure('/0/id'), operationId: 'createPet' }],
    ['another answering operation', { ...schemaFailure('/0/id'), exchange: exchange(getPet, 200) }],
    [
      'no response instead of a status',
      { ...schemaFailure('/0/id'), exchange: exchange(listPets, undefined, '', 'connection reset') },
    ],
    ['its own group', { ...schemaFailure('/0/id'), group: 'mine' }],
  ])('is a different finding with %s', (_label, other) => {
    expect(findingKey(other)).not.toBe(findingKey(schemaFailure('/7/id')));
  });

  it('other words for the same fault are remembered (at most 3), numbers alone are not news', () => {
    const set = new FindingSet();
    const base = { check: 'auth-enforced', operationId: 'createPet', severity: 'error' as const };
    const answered = exchange(listPets, 201, '{}');
    for (const label of ['no header', 'the Basic scheme', 'an empty token', 'an unknown key', 'the key in upper case'])
      set.add({ ...base, title: `accepted a request with ${label} (status 201)`, exchange: answered });
    set.add({ ...base, title: 'accepted a request with no header (status 202)', exchange: answered });
    expect(set.findings).toHaveLength(1);
    expect(set.findings[0]!.occurrences).toBe(6);
    expect(set.findings[0]!.alsoSeen).toEqual([
      'accepted a request with the Basic scheme (status 201)',
      'accepted a request with an empty token (status 201)',
      'accepted a request with an unknown key (status 201)',
    ]);
  });

  it('without an exchange or a pointer, findings are told apart by their words', () => {
    const set = new FindingSet();
    const base = { check: 'id-uniqueness', operationId: 'createPet', severity: 'error' as const };
    set.add({ ...base, title: 'id 3 was given to 2 resources' });
    set.add({ ...base, title: 'id 4 was given to 3 resources' });
    set.add({ ...base, title: 'ids are not integers' });
    expect(set.findings.map((item) => item.occurrences)).toEqual([2, 1]);
  });

  it('keeps what findings need, bounded: an excerpt of the body, no parsed value, at most 100 per case', () => {
    const set = new FindingSet();
    const huge = `[${'"x",'.repeat(1_000_000)}"x"]`;
    const answered = exchange(listPets, 200, huge);
    for (let index = 0; index < FINDING_BOUNDS.perCase + 50; index += 1)
      set.add({ ...schemaFailure(`/0/field${index}`), exchange: answered, actual: huge });
    expect(set.findings).toHaveLength(FINDING_BOUNDS.perCase);
    expect(set.omitted).toEqual({ error: 50, warning: 0 });
    expect(set.failures).toBe(FINDING_BOUNDS.perCase + 50);
    const kept = set.findings[0]!;
    expect(kept.exchange!.response!.text.length).toBe(FINDING_BOUNDS.responseExcerpt);
    expect(kept.exchange!.response!.size).toBe(huge.length);
    expect(kept.exchange!.response!.json).toBeUndefined();
    expect(kept.actual!.length).toBeLessThanOrEqual(FINDING_BOUNDS.text + 1);
  });
});
