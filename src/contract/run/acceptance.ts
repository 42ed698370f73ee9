import { isReference } from '../../openapi/generate.js';
import type { JsonSchema } from '../../openapi/openapi-types.js';
import { jsonMediaType } from '../../openapi/operations.js';
import { objectShape, typesOf } from '../../openapi/schema-shape.js';
import { wrapBody } from '../prepare/body-wrapper.js';
import { sameJson } from '../checks/same-json.js';
import type { Acceptance, RequestSpec } from '../types.js';

/**
 * Values the deployment showed, by property name (the run's value pool), and for a reference
 * slot's name the keys of the collection it names (`sessionId` → the sessions' `id`s).
 */
export interface Observed {
  get(name: string): readonly unknown[] | undefined;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const MAX_DEPTH = 8;

/** A value the deployment itself returned for a property of that name. */
function observedValue(observed: Observed, name: string, value: unknown): boolean {
  return (observed.get(name) ?? []).some((seen) => sameJson(seen, value));
}

/**
 * Reference slots of a body whose values the deployment never gave: a property named like a
 * reference (`categoryId`, `owner_id`) or holding a uuid, at any depth, except the resource's own
 * identities at the top (a client-named id is the resource, not a reference to another).
 */
export function inventedReferencesIn(
  value: unknown,
  observed: Observed,
  identities: readonly string[] = [],
  collections: ReadonlySet<string> = new Set(),
): string[] {
  const invented: string[] = [];
  const visit = (node: unknown, path: string, depth: number): void => {
    if (node === null || typeof node !== 'object' || depth > MAX_DEPTH) return;
    if (Array.isArray(node)) {
      node.forEach((item) => visit(item, path, depth + 1));
      return;
    }
    for (const [name, child] of Object.entries(node)) {
      const at = `${path}/${name}`;
      if (depth === 0 && identities.includes(name)) continue;
      if (namesOfItems(name, child, collections)) {
        if (child.some((key) => !observedKey(observed, name, key))) invented.push(at.slice(1));
        continue;
      }
      const scalar = child === null || typeof child !== 'object';
      const slot = isReference(name) || (typeof child === 'string' && UUID.test(child));
      if (scalar && slot && !observedValue(observed, name, child)) invented.push(at.slice(1));
      else visit(child, at, depth + 1);
    }
  };
  visit(value, '', 0);
  return [...new Set(invented)];
}

/**
 * A list of strings under the name of one of the document's collections (`labels: ["bug"]` where
 * `/boards/{id}/labels/{key}` exists) names items of that collection by their keys.
 */
function namesOfItems(name: string, value: unknown, collections: ReadonlySet<string>): value is string[] {
  return (
    collections.has(name.toLowerCase()) &&
    Array.isArray(value) &&
    value.length > 0 &&
    value.every((item) => typeof item === 'string')
  );
}

/** A key the deployment showed under that name, alone or in a list. */
function observedKey(observed: Observed, name: string, key: string): boolean {
  return (observed.get(name) ?? []).some((seen) => seen === key || (Array.isArray(seen) && seen.includes(key)));
}

/** The request body is one of the examples the document gives for it. */
function documentedExample(request: RequestSpec, value: unknown): boolean {
  const media =
    request.operation.operation.requestBody && jsonMediaType(request.operation.operation.requestBody.content);
  return media !== undefined && [...media.examples.values()].some((example) => sameJson(example, value));
}

/**
 * Whether the document says what this body must hold: an object body whose schema states no
 * `required` property (`{}` is valid, and so is any subset) does not say which fields make a
 * request the deployment can carry out.
 */
function saysWhatIsNeeded(schema: JsonSchema | undefined): boolean {
  if (typeof schema !== 'object') return true;
  const types = typesOf(schema);
  if (types.length > 0 && !types.includes('object')) return true;
  const options = schema.oneOf ?? schema.anyOf;
  if (Array.isArray(options)) return (options as JsonSchema[]).some(saysWhatIsNeeded);
  return objectShape(schema).required.length > 0;
}

/** What the run learned and kennel assumed while judging how firmly a request must succeed. */
export interface AcceptanceFacts {
  /** Values seen in the deployment's own resources, by property name. */
  observed: Observed;
  /** The resource's own identity properties (a client-named id is not a reference). */
  identities?: readonly string[];
  /**
   * Reference slots of this operation for which the deployment already accepted an invented value
   * (a 2xx): it evidently does not check what they name, so inventing them again is no excuse.
   */
  accepted?: ReadonlySet<string>;
  /** The document's collection names, lower case (`labels` for `/boards/{id}/labels`). */
  collections?: ReadonlySet<string>;
}

/**
 * Whether `value` holds something at a body slot's pointer (`/passengers/*\/seat_id`: `*` is any
 * item of an array).
 */
function holds(value: unknown, pointer: string): boolean {
  const [token, ...rest] = pointer.split('/').slice(1);
  if (token === undefined) return value !== undefined && value !== null;
  if (value === null || typeof value !== 'object') return false;
  if (Array.isArray(value))
    return token === '*' && value.some((item) => holds(item, rest.length === 0 ? '' : `/${rest.join('/')}`));
  const name = token.replaceAll('~1', '/').replaceAll('~0', '~');
  return holds((value as Record<string, unknown>)[name], rest.length === 0 ? '' : `/${rest.join('/')}`);
}

/**
 * The reference slots of a valid request holding values kennel invented: those a check marked
 * (`inventedReferences`), path parameters left to the builder's default (`path.ownerId`: a parent
 * named by nothing known) and body slots the deployment never gave a value for.
 */
export function inventedSlots(request: RequestSpec, facts: AcceptanceFacts): string[] {
  const path = request.pathParams ?? {};
  const defaulted = request.operation.parameters
    .filter((parameter) => parameter.in === 'path' && path[parameter.name] === undefined)
    .map((parameter) => `path.${parameter.name}`);
  const body = request.body && 'value' in request.body ? request.body.value : undefined;
  const inBody =
    body === undefined ? [] : inventedReferencesIn(body, facts.observed, facts.identities, facts.collections);
  const sent = wrapBody(body, request.operation.body?.wrapper);
  // The explorer's slots it found no value for (`query origin`, `path ownerId`, `body /trip_id`),
  // those of the body only where the body sent holds them: an optional reference left out invents nothing.
  const unresolved = (request.unresolvedReferences ?? [])
    .filter((label) => !label.startsWith('body /') || body === undefined || holds(sent, label.slice('body '.length)))
    .map((label) => (label.startsWith('body /') ? label.slice('body /'.length) : label.replace(' ', '.')));
  return [...new Set([...(request.inventedReferences ?? []), ...unresolved, ...defaulted, ...inBody])];
}

/**
 * How firmly the document says a valid request must succeed: `must` when it is valid *and*
 * acceptable (a documented example, or a body whose schema says what is required), with every
 * reference slot holding a value the deployment gave (or one of a kind it accepted before);
 * `plausible` otherwise. A request a check marks explicitly keeps its mark. Only valid requests
 * have one.
 */
export function acceptanceOf(request: RequestSpec, facts: AcceptanceFacts): Acceptance | undefined {
  if (request.intent !== 'valid') return undefined;
  if (request.acceptance) return request.acceptance;
  const accepted = facts.accepted ?? new Set<string>();
  if (inventedSlots(request, facts).some((slot) => !accepted.has(slot))) return 'plausible';
  const body = request.body && 'value' in request.body ? request.body.value : undefined;
  if (body !== undefined) {
    if (documentedExample(request, body)) return 'must';
    if (!saysWhatIsNeeded(request.operation.body?.schema)) return 'plausible';
  } else if (request.body && 'raw' in request.body && !saysWhatIsNeeded(request.operation.mediaBody?.schema))
    return 'plausible';
  return 'must';
}
