// Data fidelity, collection invariants and the identifier lifecycle: the values the checks derive
// from schemas, how list windows are compared, and the choices the checks must accept.
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { windowProblem } from '../../src/contract/checks/list-reads.js';
import { describeChange, fidelityCases } from '../../src/contract/checks/fidelity-values.js';
import { PETSTORE_SPEC } from '../../src/assets.js';
import { exactNumbers } from '../../src/core/json.js';
import { runContract } from '../../src/contract/run/runner.js';
import { checkReference, statusesOf } from './helpers.js';
import { startReferencePetstore } from './reference-petstore.js';

const SCHEMA = {
  type: 'object',
  required: ['name', 'categoryId'],
  properties: {
    name: { type: 'string' },
    nick: { type: 'string', maxLength: 5 },
    code: { type: 'string', pattern: '^[a-z]+$' },
    kind: { type: 'string', enum: ['cat', 'dog'] },
    email: { type: 'string', format: 'email' },
    ownerId: { type: 'string' },
    categoryId: { type: 'integer', format: 'int64' },
    weight: { type: 'integer', format: 'int64', minimum: 0, maximum: 1000 },
    age: { type: 'integer', format: 'int32' },
    id: { type: 'integer', format: 'int64', readOnly: true },
  },
};
const validate = new Ajv2020({ strict: false }).compile(SCHEMA);
const BASE = { name: 'Rex', nick: 'R', code: 'rex', kind: 'dog', email: 'a@example.com', ownerId: 'o1', categoryId: 1 };
const cases = fidelityCases(SCHEMA, BASE, 'kennel-run', (body) => validate(exactNumbers(body)) === true);

describe('fidelityCases derives tricky values from the schema', () => {
  const texts = cases.filter((item) => item.probed.includes('name'));
  const integers = cases.filter((item) => !item.probed.includes('name'));

  it('puts every tricky text in free-text properties only, clipped by code point to maxLength', () => {
    expect(texts.length).toBeGreaterThanOrEqual(12);
    for (const item of texts) {
      expect(item.probed).toEqual(['name', 'nick']);
      expect(Array.from(item.value.nick as string).length).toBeLessThanOrEqual(5);
      expect(item.value.nick).not.toMatch(/[\uD800-\uDBFF]$/);
      expect({ code: item.value.code, kind: item.value.kind, ownerId: item.value.ownerId }).toEqual({
        code: 'rex',
        kind: 'dog',
        ownerId: 'o1',
      });
    }
    expect(texts.map((item) => item.value.name)).toContainEqual(expect.stringContaining('e\u0301'));
    expect(texts.map((item) => item.value.name)).toContainEqual(expect.stringContaining('\u0000'));
  });

  it('refusing printable text is an error; control characters and long strings only a warning', () => {
    const refusal = Object.fromEntries(texts.map((item) => [item.label, item.refusal]));
    expect(refusal).toMatchObject({
      Greek: 'error',
      'emoji and astral characters': 'error',
      'a NUL character': 'warning',
    });
    expect(refusal['a long string (600 characters)']).toBe('warning');
  });

  it('gives int64 and int32 properties their extremes within their bounds, never a readOnly one', () => {
    const valuesOf = (name: string) =>
      integers.flatMap((item) => (item.probed.includes(name) ? [item.value[name]] : []));
    expect(valuesOf('categoryId')).toEqual(
      expect.arrayContaining([2n ** 63n - 1n, -(2n ** 63n), 2n ** 53n + 1n, 0n, -1n]),
    );
    expect(valuesOf('weight')).toEqual([0n, 1000n]);
    expect(valuesOf('age')).toEqual([2n ** 31n - 1n, -(2n ** 31n), 0n, -1n]);
    expect(valuesOf('id')).toEqual([]);
  });

  it('accepts the refusal of an extreme only when every probed property is a reference', () => {
    const onlyCategory = integers.filter((item) => item.probed.every((name) => name === 'categoryId'));
    expect(onlyCategory.length).toBeGreaterThan(0);
    for (const item of onlyCategory) expect(item.refusal).toBeUndefined();
    expect(integers.find((item) => item.probed.includes('weight'))?.refusal).toBe('warning');
  });
});

describe('describeChange', () => {
  it('names the first differing code points', () => {
    expect(describeChange('Cafe\u0301!', 'Caf\u00e9!')).toBe(
      '5 characters instead of 6; from character 4: got U+00E9 U+0021, sent U+0065 U+0301 U+0021',
    );
    expect(describeChange(-9007199254740993n, -9007199254740992)).toBe(
      '-9007199254740992 instead of -9007199254740993',
    );
  });
});

describe('windowProblem', () => {
  const items = (...ids: number[]) => ids.map((id) => ({ id }));
  const whole = items(1, 2, 3, 4, 5);

  it.each([
    ['the first items', items(1, 2), 2, undefined],
    ['an item created in between', items(9, 1, 2), 2, undefined],
    ['fewer items than expected', items(1), 2, '1 items where 2 were expected (5 in the whole list)'],
    ['a skipped item', items(1, 3), 2, 'item 2 is id 3, where the whole list has 2 (which is missing)'],
    ['another order', items(2, 1), 2, 'item 1 is id 2, where the whole list has 1 (which is listed later)'],
    ['an item twice', items(1, 1), 2, 'id 1 is listed twice'],
  ])('%s', (_label, page, expected, problem) => {
    expect(windowProblem(page, whole, 'id', expected)).toBe(problem);
  });
});

describe('choices the checks accept', () => {
  it('a list that shows new items after a short lag is a warning saying how long, not an error', async () => {
    const summary = await checkReference(
      { variant: { listLagMs: 250 } },
      { checks: ['list-freshness', 'data-fidelity', 'collection-consistency'] },
    );
    expect(statusesOf(summary, 'list-freshness')).toContain('warned');
    const titles = summary.cases.flatMap((result) => result.failures.map((failure) => failure.title));
    expect(titles).toContainEqual(expect.stringMatching(/appear in listPets.* only after a delay/));
    expect(summary.exitCode).toBe(0);
  });

  it('a collection too large to read whole is skipped, not guessed at', async () => {
    const server = await startReferencePetstore({ seedPets: 150 });
    const summary = await runContract({
      baseUrl: server.url,
      apiKey: server.apiKey,
      specPath: PETSTORE_SPEC,
      seed: 1,
      checks: ['collection-consistency', 'list-freshness'],
    }).finally(() => server.close());
    const reasons = summary.cases
      .filter((result) => result.operationId === 'listPets' && result.check !== 'not-a-server-error')
      .map((result) => result.skipReason);
    expect(reasons).toEqual([expect.stringContaining('too many to read whole'), expect.stringContaining('too many')]);
  });

  it('a read-only run reads lists and unknown ids but creates nothing', async () => {
    const checks = ['data-fidelity', 'list-freshness', 'collection-consistency', 'unknown-id-conformance'];
    const summary = await checkReference(
      {},
      { checks: [...checks, 'location-resolves', 'id-permanence'], readOnly: true },
    );
    const status = (check: string, operationId: string) =>
      summary.cases.find((result) => result.check === check && result.operationId === operationId)?.status;
    expect(status('collection-consistency', 'listPets')).toBe('passed');
    expect(status('unknown-id-conformance', 'getPet')).toBe('passed');
    for (const [check, operationId] of [
      ['data-fidelity', 'createPet'],
      ['list-freshness', 'listPets'],
      ['location-resolves', 'createPet'],
      ['id-permanence', 'getPet'],
    ])
      expect(status(check!, operationId!)).toBe('skipped');
  });
});
