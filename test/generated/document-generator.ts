import { DocumentParts } from './document-parts.js';
import { Draws } from './draws.js';
import { addExtraOperations } from './extra-operations.js';
import { ALL_FEATURES, SECURITY_FEATURES, type Feature, type OasVersion } from './features.js';
import { addResource, type BuiltResource } from './resource-builder.js';
import type { Names } from './resource-schema.js';
import { addSecurity, chooseSchemes } from './security.js';

export interface GeneratorOptions {
  /** The features a document may use (default: all). */
  features?: readonly Feature[];
  /** The OpenAPI versions to draw from (default: both). */
  versions?: readonly OasVersion[];
}

/** One generated document and what it is made of. */
export interface GeneratedDocument {
  seed: number;
  version: OasVersion;
  /** The features this document uses (a subset of those enabled). */
  features: Feature[];
  document: Record<string, unknown>;
}

const NOUNS: readonly [string, string][] = [
  ['widget', 'widgets'],
  ['order', 'orders'],
  ['ticket', 'tickets'],
  ['invoice', 'invoices'],
  ['device', 'devices'],
  ['project', 'projects'],
  ['person', 'people'],
  ['category', 'categories'],
];

/** How often an enabled feature is used by a document: most appear in about half of them. */
const USE_CHANCE: Partial<Record<Feature, number>> = {
  crud: 0.8,
  'limit-parameter': 0.7,
  'read-only-collection': 0.4,
};

/**
 * A random valid OpenAPI document for `seed`: the same seed and options give the same document.
 * Each enabled feature is drawn on its own stream, so a feature switched off leaves the others'
 * draws as they were.
 */
export function generateDocument(seed: number, options: GeneratorOptions = {}): GeneratedDocument {
  const draws = new Draws(seed);
  const enabled = new Set(options.features ?? ALL_FEATURES);
  const version = draws.fork('version').pick<OasVersion>(options.versions ?? ['3.0', '3.1']);
  // mutualTLS is OpenAPI 3.1's: a 3.0 document draws another scheme in its place.
  if (version === '3.0') enabled.delete('mutual-tls');
  const used = chooseFeatures(enabled, draws.fork('features'));
  const parts = new DocumentParts(version, used, draws.fork('parts'));
  addSecurity(parts);
  addResources(parts, draws.fork('resources'));
  addExtraOperations(parts);
  return {
    seed,
    version,
    features: ALL_FEATURES.filter((feature) => used.has(feature)),
    document: assemble(parts, draws),
  };
}

function chooseFeatures(enabled: ReadonlySet<Feature>, draws: Draws): Set<Feature> {
  const used = new Set<Feature>();
  for (const feature of ALL_FEATURES) {
    if (SECURITY_FEATURES.includes(feature)) continue;
    if (draws.fork(feature).chance(USE_CHANCE[feature] ?? 0.5) && enabled.has(feature)) used.add(feature);
  }
  const schemes = chooseSchemes(enabled, used.has('security-alternatives'), draws.fork('security'));
  for (const scheme of schemes) used.add(scheme);
  if (schemes.length < 2) used.delete('security-alternatives');
  return used;
}

function addResources(parts: DocumentParts, draws: Draws): BuiltResource[] {
  const kinds = [...(parts.uses('crud') ? [true] : []), ...(parts.uses('read-only-collection') ? [false] : [])];
  if (kinds.length === 0) return [];
  const nouns = draws.fork('nouns').some(NOUNS, draws.fork('count').int(1, 2));
  const resources = nouns.map(([singular, plural], index) => {
    const crud = index === 0 ? kinds[0]! : draws.fork(`crud ${index}`).pick(kinds);
    return addResource(
      parts,
      { names: names(singular, plural), path: `/${plural}`, crud },
      draws.fork(`resource ${index}`),
    );
  });
  const parent = resources.find((resource) => resource.itemPath !== undefined);
  if (parts.uses('sub-resource') && parent) {
    const { readOnly: _readOnly, ...schema } = parent.schemas.key.schema;
    // The parent's parameter is named for it, so the child's own `{id}` stays distinct.
    const parameter = `${parent.names.singular}${parent.schemas.key.property === 'slug' ? 'Slug' : 'Id'}`;
    const child = addResource(
      parts,
      {
        names: names('comment', 'comments'),
        path: `${parent.path}/{${parameter}}/comments`,
        crud: kinds[0]!,
        parent: { name: parameter, schema },
      },
      draws.fork('sub-resource'),
    );
    resources.push(child);
  }
  return resources;
}

function names(singular: string, plural: string): Names {
  return { singular, plural, type: singular[0]!.toUpperCase() + singular.slice(1) };
}

function assemble(parts: DocumentParts, draws: Draws): Record<string, unknown> {
  const base = parts.uses('base-path') ? draws.fork('base path').pick(['/api/v2', '/v1', '/services/store/v3']) : '';
  const components: Record<string, unknown> = {};
  if (Object.keys(parts.schemas).length > 0) components.schemas = parts.schemas;
  if (Object.keys(parts.securitySchemes).length > 0) components.securitySchemes = parts.securitySchemes;
  return {
    openapi: parts.version === '3.0' ? '3.0.3' : '3.1.0',
    info: { title: `Generated API ${parts.draws.fork('title').word(6)}`, version: '1.0.0' },
    servers: [{ url: `https://api.example.com${base}` }],
    ...(parts.security ? { security: parts.security } : {}),
    paths: parts.paths,
    ...(Object.keys(components).length > 0 ? { components } : {}),
  };
}
