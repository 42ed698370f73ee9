import { describe, expect, it } from 'vitest';
import { Random } from '../../src/core/random.js';
import { minimalValue, sampleOf, validObject, validValue } from '../../src/openapi/generate.js';

const context = (seed = 1, extra = {}) => ({ random: new Random(seed), tag: 'run7', ...extra });

describe('one schema-to-value generator', () => {
  it('sampleOf (the mock) prefers the document: const, example, default, first enum member, bounds', () => {
    expect(sampleOf({ type: 'string', example: 'Rex' })).toBe('Rex');
    expect(sampleOf({ type: 'integer', default: 20 })).toBe(20);
    expect(sampleOf({ type: 'string', enum: ['b', 'a'] })).toBe('b');
    expect(sampleOf({ type: 'integer', minimum: 5 })).toBe(5);
    expect(sampleOf({ type: 'integer', exclusiveMinimum: 5 })).toBe(6);
    expect(sampleOf({ type: 'string', format: 'uuid' })).toMatch(/^[0-9a-f-]{36}$/);
    expect(sampleOf({ type: 'string', minLength: 9 })).toBe('stringxxx');
    expect(sampleOf({ type: ['null', 'boolean'] })).toBe(true);
    expect(
      sampleOf({
        allOf: [
          { type: 'object', properties: { id: { type: 'integer', readOnly: true } } },
          { properties: { secret: { type: 'string', writeOnly: true }, name: { type: 'string' } } },
        ],
      }),
    ).toEqual({ id: 1, name: 'string' });
  });

  it('validValue (checker, seeders) is seeded: the same seed gives the same value, another seed another', () => {
    const schema = { type: 'object', properties: { name: { type: 'string' }, age: { type: 'integer' } } };
    expect(validValue(schema, context(3))).toEqual(validValue(schema, context(3)));
    expect(validValue(schema, context(3))).not.toEqual(validValue(schema, context(4)));
    expect((validValue(schema, context(3)) as { name: string }).name).toMatch(/^run7-name-[a-z]{4}$/);
  });

  it('an index varies strings of a series, and formats get values of their format', () => {
    expect(validValue({ type: 'string' }, context(1, { index: 2 }), 'title')).toMatch(/^run7-2-title-[a-z]{4}$/);
    expect(validValue({ type: 'string', format: 'uuid' }, context())).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    );
    const bytes = validValue({ type: 'string', format: 'byte' }, context()) as string;
    expect(bytes).toMatch(/^[A-Za-z0-9+/]+=*$/);
    expect(btoa(atob(bytes))).toBe(bytes);
  });

  it('requests leave out readOnly properties; required-only keeps required and minProperties', () => {
    const schema = {
      type: 'object',
      required: ['name'],
      minProperties: 2,
      properties: { id: { type: 'integer', readOnly: true }, name: { type: 'string' }, tag: { type: 'string' } },
    };
    expect(Object.keys(validObject(schema, context(), 'all'))).toEqual(['name', 'tag']);
    expect(Object.keys(validObject(schema, context(), 'required'))).toEqual(['name', 'tag']);
  });

  it('the minimal value of an array or a scalar body is a value of that schema, not {}', () => {
    const array = { type: 'array', items: { type: 'object', required: ['a'], properties: { a: { type: 'integer' } } } };
    expect(minimalValue(array, context())).toEqual([{ a: expect.any(Number) }]);
    expect(typeof minimalValue({ type: 'string' }, context())).toBe('string');
    expect(minimalValue({ type: 'array', items: { type: 'string', enum: ['x'] } }, context())).toEqual(['x']);
  });

  it('a foreign key reuses a value the deployment already holds', () => {
    const observed = new Map([['ownerId', [41]]]);
    expect(validValue({ type: 'integer' }, context(1, { observed }), 'ownerId')).toBe(41);
  });

  it('leaves an optional identity out of a resource, and gives a required one an unlikely value', () => {
    const optional = { type: 'object', properties: { id: { type: 'integer' }, name: { type: 'string' } } };
    expect(Object.keys(validObject(optional, context(1, { identities: ['id'] }), 'all'))).toEqual(['name']);
    const required = { ...optional, required: ['id'] };
    const { id } = validObject(required, context(1, { identities: ['id'] }), 'all') as { id: number };
    expect(id).toBeGreaterThanOrEqual(100_000_000);
    // Nested objects keep theirs: a category's id refers to another resource.
    const nested = { type: 'object', properties: { category: optional } };
    expect(validObject(nested, context(1, { identities: ['id'] }), 'all')).toEqual({
      category: { id: expect.any(Number), name: expect.any(String) },
    });
  });

  it('sends a required name the properties do not declare, typed by additionalProperties when it is a schema', () => {
    const undeclared = { type: 'object', required: ['name', 'team_id'], properties: { name: { type: 'string' } } };
    expect(validObject(undeclared, context(), 'required')).toEqual({
      name: expect.any(String),
      team_id: expect.any(String),
    });
    const counted = { ...undeclared, additionalProperties: { type: 'integer', minimum: 5 } };
    expect(validObject(counted, context(), 'required').team_id).toBeGreaterThanOrEqual(5);
  });

  it('names a discriminated variant by its mapping key where the variant leaves the property free', () => {
    const cat = {
      type: 'object',
      required: ['kind', 'lives'],
      properties: { kind: { type: 'string' }, lives: { type: 'integer' } },
    };
    const dog = { type: 'object', required: ['kind'], properties: { kind: { type: 'string' } } };
    const pet = { oneOf: [cat, dog], discriminator: { propertyName: 'kind', mapping: { dog: '#/d', cat: '#/c' } } };
    const document = { c: cat, d: dog };
    // Either variant will do, named by its own mapping key (a cat has lives).
    const named = (value: unknown) => {
      const { kind, lives } = value as { kind: string; lives?: number };
      return kind === 'dog' ? lives === undefined : kind === 'cat' && typeof lives === 'number';
    };
    expect(named(validObject(pet, { ...context(), document }, 'required'))).toBe(true);
    expect(named(minimalValue(pet, { ...context(), document }))).toBe(true);
    expect(named((validValue({ type: 'array', items: pet }, { ...context(), document }) as unknown[])[0])).toBe(true);
  });
});
