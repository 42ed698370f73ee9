import { describe, expect, it } from 'vitest';
import { exactNumbers, parseJson } from '../../src/core/json.js';
import { Random } from '../../src/core/random.js';
import { invalidBodies, invalidParameterValues, validBodies } from '../../src/contract/prepare/generate.js';
import { buildPlan } from '../../src/contract/prepare/plan.js';
import { loadDocument } from '../../src/openapi/load.js';
import { PETSTORE_SPEC } from '../../src/assets.js';

const spec = await loadDocument(PETSTORE_SPEC);
const plan = buildPlan(spec);
const createPet = plan.operations.find((operation) => operation.id === 'createPet')!;
const listPets = plan.operations.find((operation) => operation.id === 'listPets')!;
const validate = plan.validators.at(createPet.body!.pointer);
const context = { random: new Random(1), tag: 'kennel-test', observed: new Map([['categoryId', [4, 7]]]) };
const parse = (text: string) => {
  const parsed = parseJson(text);
  return parsed.ok ? parsed.value : undefined;
};

describe('the plan derives roles and heuristics from the Pet Store document', () => {
  it('finds list, create and read operations of /pets, the id, the limit and the status filter', () => {
    expect(plan.operations.map((operation) => [operation.id, operation.role, operation.collection])).toEqual([
      ['listPets', 'list', '/pets'],
      ['createPet', 'create', '/pets'],
      ['getPet', 'read', '/pets'],
      ['listStoreOrders', 'other', undefined],
    ]);
    expect(createPet.idProperty).toBe('id');
    expect(listPets.limit).toEqual({ name: 'limit', minimum: 1, minimumDocumented: true, maximum: 100, default: 20 });
    expect(listPets.filters).toEqual([
      { name: 'status', property: 'status', values: ['available', 'pending', 'sold'], type: 'string' },
    ]);
    expect(createPet.validationStatuses).toEqual([400]);
    expect(plan.errorSchema).toBe('#/components/responses/Unauthorized/content/application~1json/schema');
  });
});

describe('generated data', () => {
  it('valid bodies are valid, use known category ids, and carry the run prefix', () => {
    const bodies = validBodies(createPet.body!.schema, context);
    expect(bodies.map((body) => body.label)).toEqual([
      'required properties only',
      'status="available"',
      'status="pending"',
      'status="sold"',
      'categoryId=9007199254740993 (int64 edge)',
      'categoryId=9223372036854775807 (int64 edge)',
    ]);
    for (const { value } of bodies) {
      expect(validate(exactNumbers(value))).toEqual([]);
      expect((value as { name: string }).name).toMatch(/^kennel-test-name-[a-z]{4}$/);
    }
    expect([4, 7]).toContain((bodies[0]!.value as { categoryId: number }).categoryId);
  });

  it('every schema-invalid body is really invalid (re-validated), transport mistakes first', () => {
    const valid = { name: 'Rex', categoryId: 4 };
    const cases = invalidBodies(createPet.body!.schema, valid, validate, parse);
    expect(cases.slice(0, 3).map((item) => item.label)).toEqual([
      'malformed JSON',
      'an empty body',
      'a valid JSON body sent as text/plain',
    ]);
    const schemaCases = cases.filter((item) => item.schemaViolation);
    expect(schemaCases.length).toBeGreaterThan(15);
    for (const item of schemaCases) {
      const value = 'raw' in item.body ? parse(item.body.raw) : item.body.value;
      expect(validate(exactNumbers(value)).length, item.label).toBeGreaterThan(0);
    }
    expect(cases.map((item) => item.label)).toEqual(
      expect.arrayContaining([
        'required /name is missing',
        '/categoryId is a numeric string',
        '/status is not one of the enum values',
        'the body is an array, not an object',
      ]),
    );
    expect(cases.find((item) => item.label.includes('int64'))?.severity).toBe('warning');
  });

  it('drops a would-be invalid case that the schema accepts', () => {
    const lenient = { type: 'object', properties: { name: {} } };
    const cases = invalidBodies(lenient, { name: 'x' }, () => [], parse);
    expect(cases.filter((item) => item.schemaViolation)).toEqual([]);
  });

  it('invalid parameter values are outside the schema', () => {
    const limit = listPets.parameters.find((parameter) => parameter.name === 'limit')!;
    expect(invalidParameterValues(limit, plan.validators.at(limit.schema!.pointer)).map((item) => item.value)).toEqual([
      'abc',
      '1.5',
      '0',
      '101',
    ]);
  });
});

const odd = buildPlan(
  await loadDocument(new URL('../fixtures/contract/empty-path-values.yaml', import.meta.url).pathname),
);

describe('an empty path parameter is never sent: `/items/` is another URL than `/items/{id}`', () => {
  const operation = (id: string) => odd.operations.find((candidate) => candidate.id === id)!;
  const parameter = (id: string, name: string) =>
    operation(id).parameters.find((candidate) => candidate.name === name)!;

  it('below a minLength of 1, a path parameter has no invalid value; a query parameter keeps the empty one', () => {
    const path = parameter('getExport', 'exportName');
    const query = parameter('getExport', 'note');
    expect(invalidParameterValues(path, odd.validators.at(path.schema!.pointer)).map((item) => item.value)).toEqual([
      'kkkk',
    ]);
    expect(invalidParameterValues(query, odd.validators.at(query.schema!.pointer)).map((item) => item.value)).toEqual([
      '',
      'kkkk',
    ]);
  });
});
