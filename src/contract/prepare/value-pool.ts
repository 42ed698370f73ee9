import { stringifyJson } from '../../core/json.js';
import type { Resource } from '../../openapi/resource-model.js';

/** Most values kept per resource property (ids excepted) and per property name. */
const MOST_VALUES = 50;
/** Most keys kept per resource: enough for id-permanence's 500 reads. */
const MOST_KEYS = 1000;

type Item = Record<string, unknown>;

/** Distinct values in the order first seen, at most `max`. */
class Values {
  readonly list: unknown[] = [];
  readonly #seen = new Set<string>();

  constructor(readonly max: number) {}

  add(value: unknown): void {
    if (value === undefined || value === null || this.list.length >= this.max) return;
    const key = stringifyJson(value);
    if (this.#seen.has(key)) return;
    this.#seen.add(key);
    this.list.push(value);
  }

  /** Removes a value, compared as text (a key read from a path is `"7"` for the `7` an item showed). */
  remove(value: unknown): void {
    const at = this.list.findIndex((other) => String(other) === String(value));
    if (at < 0) return;
    this.#seen.delete(stringifyJson(this.list[at]));
    this.list.splice(at, 1);
  }
}

/**
 * The values a run has seen in the deployment's answers: every property of every item of a
 * resource (read through envelopes and wrappers), by the resource's collection path and the
 * property, and by property name alone (for a foreign key such as `categoryId` that no resource
 * explains). Request slots are filled from it before anything is generated.
 */
export class ValuePool {
  readonly #byResource = new Map<string, Map<string, Values>>();
  /** The key property of each collection seen. */
  readonly #keys = new Map<string, string>();
  readonly #byName = new Map<string, Values>();
  /** The same lists by name, as the generators read them. */
  readonly #observed = new Map<string, unknown[]>();
  /** Per collection, the path parameters each value was first seen under (`{ServiceSid: "VA1"}`), by its text. */
  readonly #scopes = new Map<string, Map<string, Readonly<Record<string, string>>>>();

  /**
   * Records the items of `resource` a response showed, and the path parameters of the request
   * that showed them (`scope`): a rate limit listed under service VA1 is one of VA1's.
   */
  learn(
    resource: Pick<Resource, 'path' | 'key'> | undefined,
    items: readonly unknown[],
    scope: Readonly<Record<string, string>> = {},
  ): void {
    for (const item of items) {
      if (item === null || typeof item !== 'object' || Array.isArray(item)) continue;
      for (const [name, value] of Object.entries(item as Item)) {
        this.#named(name).add(value);
        if (!resource) continue;
        const values = this.#values(resource.path, name, name === resource.key?.property);
        const known = values.list.length;
        values.add(value);
        if (values.list.length > known) this.#scope(resource.path).set(String(value), scope);
      }
    }
  }

  /** The path parameters `value` of `collection` was first seen under; undefined when never seen there. */
  scopeOf(collection: string, value: unknown): Readonly<Record<string, string>> | undefined {
    return this.#scopes.get(collection)?.get(String(value));
  }

  #scope(collection: string): Map<string, Readonly<Record<string, string>>> {
    let scopes = this.#scopes.get(collection);
    if (!scopes) this.#scopes.set(collection, (scopes = new Map<string, Readonly<Record<string, string>>>()));
    return scopes;
  }

  /** The keys of a collection's items seen so far, in the order first seen. */
  ids(collection: string | undefined, property?: string): readonly unknown[] {
    if (collection === undefined) return [];
    const properties = this.#byResource.get(collection);
    if (!properties) return [];
    const key = property ?? this.#keys.get(collection);
    return key === undefined ? [] : (properties.get(key)?.list ?? []);
  }

  /** Values of a resource property seen so far (`/trips`, `id`), in the order first seen. */
  values(collection: string, property: string): readonly unknown[] {
    return this.#byResource.get(collection)?.get(property)?.list ?? [];
  }

  /** Values seen under a property name in any resource (`categoryId`). */
  named(name: string): readonly unknown[] {
    return this.#byName.get(name)?.list ?? [];
  }

  /** Values by property name, as the generators take them (`ValueContext.observed`). */
  get observed(): ReadonlyMap<string, readonly unknown[]> {
    return this.#observed;
  }

  /** Forgets a key the deployment deleted, so no later request names it. */
  forget(resource: Pick<Resource, 'path' | 'key'>, key: unknown): void {
    if (!resource.key) return;
    this.#byResource.get(resource.path)?.get(resource.key.property)?.remove(key);
  }

  #values(collection: string, property: string, isKey: boolean): Values {
    let properties = this.#byResource.get(collection);
    if (!properties) this.#byResource.set(collection, (properties = new Map<string, Values>()));
    if (isKey) this.#keys.set(collection, property);
    let values = properties.get(property);
    if (!values) properties.set(property, (values = new Values(isKey ? MOST_KEYS : MOST_VALUES)));
    return values;
  }

  #named(name: string): Values {
    let values = this.#byName.get(name);
    if (!values) {
      this.#byName.set(name, (values = new Values(MOST_VALUES)));
      this.#observed.set(name, values.list);
    }
    return values;
  }
}
