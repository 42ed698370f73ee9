import { describe, expect, it } from 'vitest';
import { dereferenceDocument } from '../../src/openapi/dereference.js';
import { valueAt } from '../../src/openapi/json-pointer.js';

type Json = Record<string, unknown>;

describe('dereferenceDocument', () => {
  it('follows a chain of 2,000 nested references (swagger-parser stops at 500 levels)', () => {
    const schemas: Json = {};
    for (let i = 0; i < 2000; i += 1)
      schemas[`S${i}`] =
        i + 1 < 2000
          ? { type: 'object', properties: { next: { $ref: `#/components/schemas/S${i + 1}` } } }
          : { type: 'string' };
    const result = dereferenceDocument({ components: { schemas } });
    let node = valueAt(result, '#/components/schemas/S0') as Json;
    for (let i = 0; i < 1999; i += 1) node = (node.properties as Json).next as Json;
    expect(node).toEqual({ type: 'string' });
  });

  it('shares referenced objects, so a cyclic schema is a cycle', () => {
    const result = dereferenceDocument({
      components: {
        schemas: { Node: { type: 'object', properties: { parent: { $ref: '#/components/schemas/Node' } } } },
      },
    }) as { components: { schemas: { Node: { properties: { parent: unknown } } } } };
    const nodeSchema = result.components.schemas.Node;
    expect(nodeSchema.properties.parent).toBe(nodeSchema);
  });

  it('follows chains, merges sibling keywords, leaves what points nowhere, and does not touch its input', () => {
    const input = {
      a: { $ref: '#/b' },
      b: { $ref: '#/c' },
      c: { type: 'integer' },
      described: { $ref: '#/c', description: 'an integer' },
      through: { $ref: '#/b/type' },
      lost: { $ref: '#/nowhere' },
    };
    const copy = structuredClone(input);
    const result = dereferenceDocument(input) as Json;
    expect(result.a).toBe(result.c);
    expect(result.b).toBe(result.c);
    expect(result.described).toEqual({ type: 'integer', description: 'an integer' });
    expect(result.through).toBe('integer');
    expect(result.lost).toEqual({ $ref: '#/nowhere' });
    expect(input).toEqual(copy);
  });

  it("keeps the target's type where a sibling contradicts it (3.0 ignores the sibling; ajv judges by the target)", () => {
    const result = dereferenceDocument({
      Amount: { type: 'object', properties: { value: { type: 'number' } } },
      rate: { $ref: '#/Amount', type: 'number', description: 'the rate' },
      count: { $ref: '#/Whole', type: 'integer' },
      Whole: { type: ['number', 'null'] },
    }) as Json;
    expect(result.rate).toEqual({ type: 'object', properties: { value: { type: 'number' } }, description: 'the rate' });
    expect(result.count).toEqual({ type: 'integer' });
  });
});
