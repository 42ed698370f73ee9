import type { Random } from '../../core/random.js';
import { codePointLength } from '../../core/text.js';
import type { JsonSchema } from '../../openapi/openapi-types.js';
import type { ReferenceEdge } from '../../openapi/reference-edges.js';
import { primaryType } from '../../openapi/schema-shape.js';
import { collectionNamesOf, listsCollectionKeys } from './collection-keys.js';
import type { CheckPlan, PlannedOperation } from './plan.js';
import type { RunState } from '../types.js';

/** What filling reference slots needs: the plan's edges, the run's values and created resources. */
export interface ReferenceSources {
  plan: CheckPlan;
  state: RunState;
  random: Random;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A pattern as a RegExp, or undefined when JavaScript cannot read it (then it is not checked). */
function patternOf(schema: Record<string, unknown>): RegExp | undefined {
  try {
    return typeof schema.pattern === 'string' ? new RegExp(schema.pattern) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * True when a value the deployment showed fits the slot it would fill: its type (as JSON in a
 * body, as text in a parameter), enum, uuid format, pattern, length and bounds. A key the
 * deployment shows as `37` does not go where the document asks for a uuid.
 */
export function fitsSlot(value: unknown, schema: JsonSchema | undefined, asText: boolean): boolean {
  if (typeof schema !== 'object') return true;
  if (Array.isArray(schema.enum)) return schema.enum.some((member) => String(member) === String(value));
  const type = primaryType(schema);
  const text = String(value);
  if (type === 'integer' || type === 'number') {
    const number = typeof value === 'number' || typeof value === 'bigint' ? Number(value) : asText ? Number(text) : NaN;
    if (!Number.isFinite(number) || (type === 'integer' && !Number.isInteger(number))) return false;
    return (
      !(typeof schema.minimum === 'number' && number < schema.minimum) &&
      !(typeof schema.maximum === 'number' && number > schema.maximum)
    );
  }
  if (type === 'string' && typeof value !== 'string' && !asText) return false;
  if (schema.format === 'uuid' && !UUID.test(text)) return false;
  if (typeof schema.minLength === 'number' && codePointLength(text) < schema.minLength) return false;
  if (typeof schema.maxLength === 'number' && codePointLength(text) > schema.maxLength) return false;
  return patternOf(schema)?.test(text) ?? true;
}

/** `query origin`, `body /departure_id`: how a slot is named in `unresolvedReferences`. */
export function slotLabel(edge: ReferenceEdge): string {
  return `${edge.slot.in} ${edge.slot.name}`;
}

/**
 * Values the deployment showed for an edge's resource property: this run's created resources
 * first (for keys), then everything seen; when the resource shows none, those of resources with
 * the same item schema (a status seen through `/statuses/{id}/reblog` is a status).
 */
export function valuesFor(
  sources: Pick<ReferenceSources, 'plan' | 'state'>,
  edge: ReferenceEdge,
  createdOnly = false,
): unknown[] {
  const { plan, state } = sources;
  const created = (state.created.get(edge.resource) ?? [])
    .map((resource) => resource.returned[edge.property])
    .filter((value) => value !== undefined && value !== null);
  if (createdOnly) return created;
  const seen = [...created, ...state.pool.values(edge.resource, edge.property)];
  if (seen.length > 0) return [...new Set(seen)];
  const schema = plan.model.resources.find((resource) => resource.path === edge.resource)?.itemSchema;
  return plan.model.resources
    .filter((resource) => resource.path !== edge.resource && schema !== undefined && resource.itemSchema === schema)
    .flatMap((resource) => state.pool.values(resource.path, edge.property));
}

/** `ServiceSid` of `/Services/{ServiceSid}/RateLimits`: the parameters naming a collection's parents. */
function parentNames(collection: string): string[] {
  return [...collection.matchAll(/\{([^}/]+)\}/g)].map((match) => match[1]!);
}

/** A parent already chosen (by a deeper parameter) is the one the value was seen under. */
function agrees(chosen: Record<string, string>, parent: string, scope: Readonly<Record<string, string>>): boolean {
  return chosen[parent] === undefined || chosen[parent] === scope[parent];
}

/**
 * Fills the reference slots of one request from what the deployment showed, and remembers the
 * slots it could not fill (`unresolved`): those get documented or generated values instead.
 */
export class ReferenceFiller {
  readonly unresolved = new Set<string>();
  readonly #edges: ReferenceEdge[];

  constructor(
    readonly sources: ReferenceSources,
    readonly operation: PlannedOperation,
  ) {
    this.#edges = sources.plan.references.of(operation.operation);
  }

  /**
   * A value for a parameter: path ids from the collection they name (PUT and PATCH only
   * resources this run created: never change the deployment's own; DELETE none, it would remove
   * what later checks read); query, header and cookie references from anything seen.
   */
  parameter(location: 'path' | 'query' | 'header' | 'cookie', name: string): string | undefined {
    const found = this.#candidates(location, name);
    if (!found) return undefined;
    if (found.values.length === 0) {
      this.unresolved.add(slotLabel(found.edge));
      return undefined;
    }
    return String(found.values[0]);
  }

  /**
   * Values for all of the operation's path parameters at once, chosen to agree with each other: a
   * child is read under the parent it was seen under (`/Services/VA1/RateLimits/RK1`, never RK1
   * under VA2), so the deepest parameter is chosen first and pins its parents. A value seen
   * without its parents (listed by a top-level `/repositories`) does not fill a sub-resource's
   * key: nothing says which parent holds it.
   */
  pathParameters(): Record<string, string> {
    const names = this.operation.parameters.filter((parameter) => parameter.in === 'path').map((p) => p.name);
    const chosen: Record<string, string> = {};
    const pinned = new Set<string>();
    for (const name of [...names].reverse()) {
      if (pinned.has(name)) continue;
      const found = this.#candidates('path', name);
      if (!found) continue;
      const parents = parentNames(found.edge.resource).filter((parent) => names.includes(parent) && parent !== name);
      const agreeing = this.#firstAgreeing(found.edge.resource, found.values, parents, chosen);
      if (!agreeing) {
        this.unresolved.add(slotLabel(found.edge));
        continue;
      }
      chosen[name] = String(agreeing.value);
      pinned.add(name);
      for (const parent of parents) {
        chosen[parent] = agreeing.scope![parent]!;
        pinned.add(parent);
      }
    }
    return chosen;
  }

  /** The first value seen under the parents already chosen (any value when the collection has none here). */
  #firstAgreeing(
    collection: string,
    values: readonly unknown[],
    parents: readonly string[],
    chosen: Record<string, string>,
  ): { value: unknown; scope: Readonly<Record<string, string>> | undefined } | undefined {
    if (parents.length === 0) return values.length > 0 ? { value: values[0], scope: undefined } : undefined;
    for (const value of values) {
      const scope = this.#scopeOf(collection, value);
      if (scope && parents.every((parent) => scope[parent] !== undefined && agrees(chosen, parent, scope)))
        return { value, scope };
    }
    return undefined;
  }

  /** Where `value` of `collection` was seen: under that collection, else under one with the same items. */
  #scopeOf(collection: string, value: unknown): Readonly<Record<string, string>> | undefined {
    const { plan, state } = this.sources;
    const own = state.pool.scopeOf(collection, value);
    if (own) return own;
    const schema = plan.model.resources.find((resource) => resource.path === collection)?.itemSchema;
    for (const resource of plan.model.resources)
      if (resource.path !== collection && schema !== undefined && resource.itemSchema === schema) {
        const scope = state.pool.scopeOf(resource.path, value);
        if (scope) return scope;
      }
    return undefined;
  }

  #candidates(
    location: 'path' | 'query' | 'header' | 'cookie',
    name: string,
  ): { edge: ReferenceEdge; values: unknown[] } | undefined {
    const edge = this.#edges.find((candidate) => candidate.slot.in === location && candidate.slot.name === name);
    if (!edge) return undefined;
    const method = this.operation.operation.method;
    if (location === 'path' && method === 'delete') return undefined;
    const changes = location === 'path' && !this.operation.safe && method !== 'post';
    const own = edge.resource === this.operation.collection;
    const values = valuesFor(this.sources, edge, changes && own).filter((value) =>
      fitsSlot(value, edge.slot.schema, true),
    );
    return { edge, values };
  }

  /** The generators' hook for body properties (`ValueContext.reference`): a value seen, picked at random. */
  readonly body = (name: string, schema: JsonSchema): { value: unknown } | undefined => {
    const minItems = typeof schema === 'object' && typeof schema.minItems === 'number' ? schema.minItems : 0;
    if (minItems === 0 && listsCollectionKeys(name, schema, collectionNamesOf(this.sources.plan.operations)))
      return { value: [] };
    const edge = this.#edges.find(
      (candidate) => candidate.slot.in === 'body' && candidate.slot.word === name && candidate.slot.schema === schema,
    );
    if (!edge) return undefined;
    const values = valuesFor(this.sources, edge).filter((value) => fitsSlot(value, schema, false));
    if (values.length === 0) {
      this.unresolved.add(slotLabel(edge));
      return undefined;
    }
    return { value: this.sources.random.pick(values) };
  };
}
