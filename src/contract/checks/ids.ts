import { stringifyJson } from '../../core/json.js';
import type { Random } from '../../core/random.js';
import { randomUuid } from '../../openapi/generate.js';
import { primaryType } from '../../openapi/schema-shape.js';
import type { JsonSchema } from '../../openapi/openapi-types.js';
import type { PlannedOperation, PlannedParameter } from '../prepare/plan.js';
import { pathParamsAt } from '../prepare/url-operation.js';
import type { Exchange, RunSettings } from '../types.js';

/**
 * The path parameter that names the resource (`petId` of `/owners/{ownerId}/pets/{petId}`): the
 * last one. A list or a create names none: its path parameters are its parents' keys (`ownerId`).
 */
export function idParameter(operation: PlannedOperation): PlannedParameter | undefined {
  if (operation.role === 'list' || operation.role === 'create') return undefined;
  const inPath = operation.parameters.filter((parameter) => parameter.in === 'path');
  // The last template of the path, not the last parameter declared: documents list them in any order.
  const last = /\{([^}/]+)\}[^{]*$/.exec(operation.operation.path)?.[1];
  return inPath.find((parameter) => parameter.name === last) ?? inPath.at(-1);
}

/**
 * An id of the schema's type that no deployment is likely to hold: a random uuid for
 * `format: uuid`, a large number for numbers (within `maximum`), a run-marked word for strings.
 * Undefined when the schema allows only listed values (an enum): every one of them may exist.
 */
export function unlikelyId(schema: JsonSchema | undefined, random: Random, base = 800_000_000): string | undefined {
  if (typeof schema !== 'object') schema = {};
  if (Array.isArray(schema.enum) || 'const' in schema) return undefined;
  const type = primaryType(schema);
  if (type === 'integer' || type === 'number') {
    const maximum = typeof schema.maximum === 'number' ? schema.maximum : Number.MAX_SAFE_INTEGER;
    const minimum = typeof schema.minimum === 'number' ? schema.minimum : 0;
    const low = Math.max(minimum, Math.min(base, maximum - 99_999_999));
    return String(random.int(low, Math.min(maximum, low + 99_999_999)));
  }
  if (schema.format === 'uuid') return randomUuid(random);
  const text = `kennel-unknown-${random.word(8)}`;
  const max = typeof schema.maxLength === 'number' ? schema.maxLength : text.length;
  const min = typeof schema.minLength === 'number' ? schema.minLength : 0;
  return text.slice(0, Math.max(max, 1)).padEnd(min, 'x');
}

/**
 * Whether the document lets a client know which ids exist: the shared resource model keeps state
 * for the collection (its items are created and keyed). Otherwise (no create: files, volumes made
 * elsewhere) a made-up id may exist for all kennel can tell, and a 2xx for it is only a warning.
 */
export function knowable(operation: PlannedOperation): boolean {
  return operation.resource?.stateful === true;
}

/** Why a create-with-ids check does not apply here, or undefined when it does. */
export function createsIdentifiedResources(operation: PlannedOperation, settings: RunSettings): string | undefined {
  if (operation.role !== 'create' || !operation.idProperty) return 'not an operation that creates identified resources';
  if (!operation.returnsItem) return 'the create documents no resource in its response';
  return settings.readOnly ? 'read-only run' : undefined;
}

/** An id as text, the same for 7 and 7n: ids compare by it. */
export function idKey(value: unknown): string {
  return stringifyJson(value);
}

/** The id of an item (undefined when it has none). */
export function idOf(item: unknown, idProperty: string): unknown {
  return item !== null && typeof item === 'object' ? (item as Record<string, unknown>)[idProperty] : undefined;
}

/**
 * The answer's key is a key the request's own path names (`POST /notes/7/archive` answering note
 * 7): an action on that item that answers it, not a create of something new, whatever its shape.
 */
export function answersItsPathItem(exchange: Exchange, key: unknown): boolean {
  if (key === undefined || key === null || typeof key === 'object') return false;
  const values = pathParamsAt(exchange.operation.operation.path, exchange.request.url) ?? {};
  return Object.values(values).some((value) => value === String(key));
}
