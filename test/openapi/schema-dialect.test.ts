import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadDocument, type LoadedDocument } from '../../src/openapi/load.js';
import { schemaDialectOf } from '../../src/openapi/schema-dialect.js';
import { SchemaValidators } from '../../src/openapi/validators.js';

const FIXTURES = path.resolve('test/fixtures/openapi');
let loaded: LoadedDocument;
let validators: SchemaValidators;
const issuesOf = (schema: string, value: unknown) => validators.at(`#/components/schemas/${schema}`)(value);
const envelope = (field: string, value: unknown) => issuesOf('Envelope', { [field]: value });

beforeAll(async () => {
  loaded = await loadDocument(path.join(FIXTURES, 'oas30-constructs.yaml'));
  validators = new SchemaValidators(loaded.document);
});

describe('OpenAPI 3.0 schemas are validated as their authors meant them', () => {
  it.each([
    ['byRef', null, true],
    ['byRef', 'x', true],
    ['byRef', '', false], // the referenced schema still applies (minLength 1)
    ['byAllOf', null, true],
    ['byAllOf', '', false],
    ['byAnyOf', null, true],
    ['byAnyOf', 3, true],
    ['byAnyOf', true, false],
    ['untyped', null, true],
    ['untyped', { any: 'thing' }, true],
    ['typed', null, true],
    ['typed', 'x', true],
    ['typed', 3, false],
    ['choice', null, true],
    ['choice', 'a', true],
    ['choice', 'c', false],
    ['score', 0, false], // exclusiveMinimum: true
    ['score', 0.5, true],
    ['score', 10, true], // exclusiveMaximum: false keeps maximum inclusive
    ['score', 10.5, false],
    ['code', 'a.b-c', true], // a pattern that only parses without the `u` flag
    ['code', 'a b', false],
    ['broken', 'anything', true], // an unreadable pattern is dropped, with a warning
  ])('%s = %j valid: %s', (field, value, valid) => {
    expect(envelope(field, value).length === 0).toBe(valid);
  });

  it('warns about the dropped pattern at its line, and about nothing else', () => {
    expect(loaded.warnings).toEqual([
      {
        location: `${path.join(FIXTURES, 'oas30-constructs.yaml')}:62`,
        message:
          '#/components/schemas/Envelope/properties/broken/pattern: pattern "(unclosed" is not a regular expression JavaScript can read; kennel ignores it',
      },
    ]);
  });

  it('a discriminator with mapping picks the variant by the value it names', () => {
    expect(issuesOf('Pet', { petType: 'kitty', lives: 3 })).toEqual([]);
    expect(issuesOf('Pet', { petType: 'kitty', lives: 12 })).toContainEqual({
      pointer: '/lives',
      message: 'must be <= 9',
    });
    // Dog is not in the mapping: its schema name is its value.
    expect(issuesOf('Pet', { petType: 'Dog', bark: 'woof' })).toEqual([]);
    // Matches Cat and Dog alike: plain oneOf would refuse it; the discriminator says Dog.
    expect(issuesOf('Pet', { petType: 'Dog' })).toEqual([]);
    expect(issuesOf('Pet', { petType: 'Cat' })).toContainEqual({
      pointer: '/petType',
      message: 'must be one of: "kitty", "Dog"',
    });
    expect(issuesOf('Pet', {})).toContainEqual({ pointer: '/petType', message: 'is required' });
  });

  it('a discriminator on an allOf base compiles and validates the base', () => {
    expect(issuesOf('Animal', { petType: 'anything' })).toEqual([]);
    expect(issuesOf('Cat', { petType: 'x', lives: 10 })).toContainEqual({ pointer: '/lives', message: 'must be <= 9' });
    expect(issuesOf('Cat', {})).toContainEqual({ pointer: '/petType', message: 'is required' });
  });

  it('translates a copy: the loaded document and every pointer into it stay as written', () => {
    const envelopeSchema = loaded.document.components!.schemas!.Envelope as { properties: Record<string, object> };
    expect(envelopeSchema.properties.byRef).toEqual({ nullable: true, $ref: '#/components/schemas/Name' });
    const translated = schemaDialectOf(loaded.document).document.components!.schemas!.Envelope as {
      properties: Record<string, object>;
    };
    expect(translated.properties.score).toEqual({ type: 'number', exclusiveMinimum: 0, maximum: 10 });
    expect(translated.properties.byRef).toEqual({ anyOf: [{ type: 'null' }, { $ref: '#/components/schemas/Name' }] });
    expect(schemaDialectOf(loaded.document)).toBe(schemaDialectOf(loaded.document));
  });

  it('compiles a schema on first use only', () => {
    const fresh = new SchemaValidators({
      openapi: '3.1.0',
      info: { title: 't', version: '1' },
      components: { schemas: { Bad: { $ref: '#/components/schemas/Absent' } } },
    });
    const validate = fresh.at('#/components/schemas/Bad');
    expect(() => validate({})).toThrow(/Absent/);
  });
});

describe('a discriminator without mapping whose variants name their own values', () => {
  const variant = (value: string, extra: string) => ({
    type: 'object',
    required: ['type', extra],
    properties: { type: { type: 'string', enum: [value] }, [extra]: { type: 'integer' } },
  });
  const own = new SchemaValidators({
    openapi: '3.0.3',
    info: { title: 't', version: '1' },
    paths: {},
    components: {
      schemas: {
        TrackObject: variant('track', 'duration'),
        EpisodeObject: variant('episode', 'season'),
        Playable: {
          oneOf: [{ $ref: '#/components/schemas/TrackObject' }, { $ref: '#/components/schemas/EpisodeObject' }],
          discriminator: { propertyName: 'type' },
        },
      },
    },
  });
  const issues = (value: unknown) => own.at('#/components/schemas/Playable')(value);

  it('takes the variant by the value its own schema allows (the implicit schema name contradicts it)', () => {
    expect(issues({ type: 'track', duration: 3 })).toEqual([]);
    expect(issues({ type: 'episode', season: 1 })).toEqual([]);
    expect(issues({ type: 'track', season: 1 })).toContainEqual({ pointer: '/duration', message: 'is required' });
    expect(issues({ type: 'TrackObject', duration: 3 })).toContainEqual({
      pointer: '/type',
      message: 'must be one of: "track", "episode"',
    });
  });
});
