import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { Random } from '../../src/core/random.js';
import { loadDocument, type LoadedDocument } from '../../src/openapi/load.js';
import { sampleOf, validValue } from '../../src/openapi/generate.js';
import { SchemaValidators } from '../../src/openapi/validators.js';
import type { JsonSchema } from '../../src/openapi/openapi-types.js';

const FIXTURE = fileURLToPath(new URL('../fixtures/openapi/generator-schemas.yaml', import.meta.url));

let spec: LoadedDocument;
let validators: SchemaValidators;
beforeAll(async () => {
  spec = await loadDocument(FIXTURE);
  validators = new SchemaValidators(spec.document);
});

const names = [
  'DecimalId',
  'PrefixedId',
  'UuidWithPattern',
  'ShortDate',
  'Sku',
  'Money',
  'Percent',
  'Int32',
  'Tags',
  'UniqueNumbers',
  'ManyStrings',
  'NestedRequired',
  'Pet',
  'Envelope',
  'EitherShape',
  'NullableRef',
  'BadExample',
  'Tuple',
  'UndeclaredRequired',
];

function schemaOf(name: string): JsonSchema | undefined {
  return spec.dereferenced.components!.schemas![name];
}

describe('every generated value is valid against its schema (ajv judges)', () => {
  it.each(names)('%s: the sample', (name) => {
    const value = sampleOf(schemaOf(name), { document: spec.dereferenced });
    expect(validators.at(`#/components/schemas/${name}`)(value)).toEqual([]);
  });

  it.each(names)('%s: seeded values', (name) => {
    for (let seed = 1; seed <= 8; seed += 1) {
      const value = validValue(
        schemaOf(name),
        { random: new Random(seed), tag: 'run', direction: 'response', document: spec.dereferenced },
        name,
      );
      expect(validators.at(`#/components/schemas/${name}`)(value), `seed ${seed}: ${JSON.stringify(value)}`).toEqual(
        [],
      );
    }
  });
});

describe('what the values look like', () => {
  it('a discriminated oneOf names the variant it generated (mapping key, else the schema name)', () => {
    expect(sampleOf(schemaOf('Pet'), { document: spec.dereferenced })).toMatchObject({ petType: 'kitty' });
    expect(sampleOf(schemaOf('Pet'), { document: spec.dereferenced, alternative: 1 })).toMatchObject({
      petType: 'Dog',
      bark: true,
    });
  });

  it('a oneOf inside an allOf is kept: its required fields are there', () => {
    expect(sampleOf(schemaOf('Envelope'))).toEqual({ kind: 'card', cardNumber: expect.stringMatching(/^\d{16}$/) });
  });

  it('an example that breaks its schema is not used; a pattern gives the value', () => {
    expect(sampleOf(schemaOf('BadExample'))).toEqual({ id: expect.stringMatching(/^[a-z]+$/) });
    expect(sampleOf(schemaOf('DecimalId'))).toMatch(/^(0|[1-9][0-9]*)$/);
  });

  it('without examples, a sample is built from the keywords alone', () => {
    expect(sampleOf({ type: 'string', example: 'Rex' }, { examples: false })).toBe('string');
  });
});
