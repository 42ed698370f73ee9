import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import SwaggerParser from '@apidevtools/swagger-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadDocument } from '../../src/openapi/load.js';
import { fragmentToken } from '../../src/openapi/json-pointer.js';
import { SchemaValidators } from '../../src/openapi/validators.js';
import { writeDocument } from './consistency-harness.js';
import { generateDocument, type GeneratedDocument } from './document-generator.js';
import { ALL_FEATURES, parseFeatures, type Feature } from './features.js';

const SEEDS = Array.from({ length: 40 }, (_, index) => index + 1);

/** Text only a feature puts in a document: switched off, it must not be there. */
const MARKERS: Partial<Record<Feature, RegExp>> = {
  crud: /"operationId":"create/,
  envelope: /"required":\["data"\],"properties":\{"data":\{"type":"array"/,
  'envelope-meta': /"required":\["data","meta"\]/,
  'wrapped-item': /"required":\["(data|[a-z]+)"\],"properties":\{"\1":\{"\$ref"/,
  'all-of': /"allOf":\[\{"\$ref":"#\/components\/schemas\/\w*(Entity\w*|Base)"\},\{/,
  'one-of': /PhoneContact/,
  'any-of': /"anyOf":\[\{"type":"string"/,
  discriminator: /"discriminator"/,
  'write-only': /"writeOnly":true/,
  'read-only': /"readOnly":true/,
  patterns: /"pattern"/,
  const: /"schemaVersion"/,
  'odd-paths': /name:\{fileName\}/,
  'literal-sibling': /\/mine"/,
  'percent-encoded': /%C3%A9/,
  'path-styles': /"style":"matrix"/,
  'odd-keys': /"size\/unit"/,
  'query-styles': /"in":"query","style"/,
  'header-parameters': /"in":"header","(schema|required)"/,
  'cookie-parameters': /"in":"cookie","(schema|required)"/,
  'vendor-json': /vnd\.kennel\+json/,
  'problem-json': /problem\+json/,
  'form-body': /x-www-form-urlencoded/,
  multipart: /multipart\/form-data/,
  'text-media': /text\/plain/,
  'xml-media': /application\/xml/,
  'api-key-header': /"in":"header","name":"X-API-Key"/,
  'api-key-query': /"in":"query","name":"api_key"/,
  'api-key-cookie': /"in":"cookie","name":"token"/,
  'http-bearer': /"scheme":"bearer"/,
  'http-basic': /"scheme":"basic"/,
  oauth2: /"oauth2"/,
  'open-id-connect': /openIdConnect/,
  'mutual-tls': /"mutualTLS"/,
  links: /"links":\{"Get/,
  examples: /"example/,
  'base-path': /"url":"https:\/\/api\.example\.com\//,
  'sub-resource': /\/comments/,
  'status-variants': /"(4XX|default)":\{"description"/,
  'path-level-parameters': /\}"?:\{"parameters":/,
  'nested-objects': /OrderLine|"dimensions"/,
  'additional-properties': /"labels":\{"type":"object","additionalProperties"/,
  defaults: /"default":(?!20\b|\{)/,
  'security-alternatives': /"security":\[\{"\w+":\[[^\]]*\]\},\{"\w+":/,
};

/** Each seed's document with every feature, as JSON: the same for every marker (the generator is deterministic). */
const fullTexts = new Map<number, string>();
function fullText(seed: number): string {
  let text = fullTexts.get(seed);
  if (text === undefined) fullTexts.set(seed, (text = JSON.stringify(generateDocument(seed).document)));
  return text;
}

let directory: string;
beforeAll(async () => {
  directory = await mkdtemp(path.join(os.tmpdir(), 'kennel-generator-'));
});
afterAll(() => rm(directory, { recursive: true, force: true }));

describe('the document generator', () => {
  it('gives the same document for the same seed and options, and another for another seed', () => {
    expect(generateDocument(7)).toEqual(generateDocument(7));
    expect(JSON.stringify(generateDocument(7).document)).not.toBe(JSON.stringify(generateDocument(8).document));
  });

  it('uses every feature in some document of the first seeds', () => {
    const used = new Set(SEEDS.flatMap((seed) => generateDocument(seed).features));
    expect(ALL_FEATURES.filter((feature) => !used.has(feature))).toEqual([]);
  });

  it.each(Object.entries(MARKERS))('%s switched off leaves no trace, on shows in some document', (feature, marker) => {
    const without = parseFeatures(`all,-${feature}`);
    const text = (seed: number, features: Feature[]): string =>
      JSON.stringify(generateDocument(seed, { features }).document);
    expect(SEEDS.filter((seed) => marker.test(text(seed, without)))).toEqual([]);
    expect(SEEDS.filter((seed) => marker.test(fullText(seed))).length).toBeGreaterThan(0);
  });

  it('switching a feature off keeps the other features of the seed', () => {
    for (const seed of SEEDS.slice(0, 10)) {
      const full = generateDocument(seed);
      const dropped = full.features[0]!;
      const features = generateDocument(seed, {
        features: full.features.filter((feature) => feature !== dropped),
      }).features;
      expect(features).toEqual(full.features.filter((feature) => feature !== dropped));
    }
  });

  it('with no feature, writes the status operation alone', () => {
    const generated = generateDocument(3, { features: [] });
    expect(generated.features).toEqual([]);
    expect(Object.keys(generated.document.paths as object)).toEqual(['/status']);
  });

  it.each(SEEDS)('seed %i: valid OpenAPI, loaded by kennel without a warning, every example valid', async (seed) => {
    const generated = generateDocument(seed);
    await SwaggerParser.validate(structuredClone(generated.document) as never);
    const loaded = await loadDocument(await writeDocument(generated, directory));
    expect(loaded.warnings).toEqual([]);
    expect(invalidExamples(generated)).toEqual([]);
  });
});

/**
 * Every example of a media type checked against its schema. readOnly properties are left out of
 * request examples and writeOnly ones out of response examples, as OpenAPI says, so those may be
 * missing although required.
 */
function invalidExamples(generated: GeneratedDocument): string[] {
  const validators = new SchemaValidators(generated.document as never);
  const problems: string[] = [];
  for (const { pointer, media, request } of mediaTypes(generated.document)) {
    const examples = [
      ...(media.example !== undefined ? [media.example] : []),
      ...Object.values((media.examples ?? {}) as Record<string, { value: unknown }>).map((example) => example.value),
    ];
    const exempt = request ? READ_ONLY : WRITE_ONLY;
    for (const example of examples) {
      const issues = validators
        .at(`${pointer}/schema`)(example)
        .filter((issue) => !(issue.message === 'is required' && exempt.has(issue.pointer.split('/').at(-1)!)));
      if (issues.length > 0) problems.push(`${pointer}: ${JSON.stringify(issues)}`);
    }
  }
  return problems;
}

const READ_ONLY = new Set([
  'id',
  'createdAt',
  'widgetId',
  'orderId',
  'ticketId',
  'invoiceId',
  'deviceId',
  'projectId',
  'personId',
  'categoryId',
  'commentId',
]);
const WRITE_ONLY = new Set(['secret']);

function* mediaTypes(document: Record<string, unknown>) {
  const paths = document.paths as Record<string, Record<string, Record<string, unknown>>>;
  for (const [route, item] of Object.entries(paths))
    for (const [method, operation] of Object.entries(item)) {
      const at = `#/paths/${fragmentToken(route)}/${method}`;
      const body = operation.requestBody as { content?: Record<string, Record<string, unknown>> } | undefined;
      for (const [type, media] of Object.entries(body?.content ?? {}))
        yield { pointer: `${at}/requestBody/content/${fragmentToken(type)}`, media, request: true };
      const responses = (operation.responses ?? {}) as Record<
        string,
        { content?: Record<string, Record<string, unknown>> }
      >;
      for (const [status, response] of Object.entries(responses))
        for (const [type, media] of Object.entries(response.content ?? {}))
          yield { pointer: `${at}/responses/${status}/content/${fragmentToken(type)}`, media, request: false };
    }
}
