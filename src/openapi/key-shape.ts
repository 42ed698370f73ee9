import { Random } from '../core/random.js';
import { validValue } from './generate.js';
import { valueAt } from './json-pointer.js';
import type { JsonSchema } from './openapi-types.js';
import type { Resource } from './resource-model.js';
import { objectShape, primaryType } from './schema-shape.js';
import { fits } from './value-fits.js';

/** How server-assigned keys of one collection must look to fit what the document says of them. */
export interface KeyShape {
  /** True when the store's own keys (1, 2, 3… or UUIDs) fit the key property and the item path parameter. */
  storeKeysFit: boolean;
  /** A key for the n-th item kennel names itself, fitting both (undefined when none could be made). */
  make(serial: number): unknown;
}

const DRAWS = 8;
const PROBES = [1, 2, 1000];

/** The item parameter's schema, from any operation on the item path (read, replace, update, delete). */
function parameterSchema(resource: Resource, document: unknown): JsonSchema | undefined {
  for (const operation of Object.values(resource.operations)) {
    if (operation.path !== resource.itemPath) continue;
    const parameter = operation.parameters.find(
      (candidate) => candidate.in === 'path' && candidate.name === resource.itemParameter,
    );
    if (parameter?.schema) return valueAt(document, parameter.schema.pointer) as JsonSchema | undefined;
  }
  return undefined;
}

/** A key as its path parameter reads it back: the URL text typed by the parameter's schema. */
function asParameter(key: unknown, schema: JsonSchema | undefined): unknown {
  const type = primaryType(schema);
  const text = String(key);
  if ((type === 'integer' || type === 'number') && /^-?\d+(\.\d+)?$/.test(text)) return Number(text);
  return type === 'string' || type === undefined ? text : key;
}

/**
 * What keys of `resource` must look like: the key property's schema and the item path
 * parameter's (`^ord_[a-z0-9]+$`, `format: uuid` on the parameter while the property only says
 * string) together. When the store's sequence or UUIDs already fit, the store names items as
 * before; otherwise kennel draws keys from both schemas, seeded, so `Location` and read-backs work.
 */
export function keyShapeOf(resource: Resource, document: unknown, seed: number): KeyShape {
  const key = resource.key;
  const property = key ? objectShape(resource.itemSchema).properties[key.property] : undefined;
  const parameter = parameterSchema(resource, document);
  const fitsBoth = (candidate: unknown) =>
    candidate !== undefined && fits(candidate, property) && fits(asParameter(candidate, parameter), parameter);
  const storeKey = (serial: number) =>
    key?.kind === 'uuid' ? '00000000-0000-4000-8000-000000000000' : key?.kind === 'integer' ? serial : String(serial);
  const storeKeysFit = PROBES.every((serial) => fitsBoth(storeKey(serial)));
  const both: JsonSchema = { allOf: [property ?? {}, parameter ?? {}] };
  return {
    storeKeysFit,
    make(serial) {
      for (let draw = 0; draw < DRAWS; draw += 1) {
        const random = new Random(seed * 7919 + serial * 31 + draw);
        const candidate = validValue(both, { random, tag: 'kennel', index: serial, document }, key?.property ?? '');
        if (fitsBoth(candidate)) return candidate;
      }
      return undefined;
    },
  };
}
