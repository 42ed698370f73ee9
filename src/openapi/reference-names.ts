import type { LoadedDocument } from './load.js';
import { itemNames, singularOf, squashed, wordsOf } from './naming.js';
import type { JsonSchema } from './openapi-types.js';
import type { Resource } from './resource-model.js';
import { objectShape, primaryType } from './schema-shape.js';

/** A resource property a reference can point at (usually the key). */
export interface ReferenceTarget {
  resource: Resource;
  property: string;
}

/** Words that end a reference's name and say "the key of" (`trip_id`, `station_ids`, `owner_uuid`). */
const ID_WORDS = new Set(['id', 'ids', 'uuid', 'uuids', 'ref', 'refs']);

/** Words of a description that announce an identifier ("The ID of the origin station"). */
const ID_MENTIONS = new Set(['id', 'ids', 'identifier', 'identifiers', 'uuid', 'key']);

/** True when the last word of a name says it holds an identifier (`trip_id`, `stationIds`). */
export function endsWithIdWord(name: string): boolean {
  return ID_WORDS.has(wordsOf(name).at(-1) ?? '');
}

/** The noun an id-named slot names (`role` of `role_id`), if it has one: its words before the id word. */
export function nounOf(name: string): string[] {
  const words = wordsOf(name);
  return ID_WORDS.has(words.at(-1) ?? '') ? words.slice(0, -1) : [];
}

/** Names of component schemas by the (dereferenced, shared) schema object: `Station` for the station schema. */
function componentNames(document: LoadedDocument): Map<unknown, string> {
  const names = new Map<unknown, string>();
  const schemas = (document.dereferenced.components as { schemas?: Record<string, unknown> } | undefined)?.schemas;
  for (const [name, schema] of Object.entries(schemas ?? {})) if (!names.has(schema)) names.set(schema, name);
  return names;
}

/** A value of `slot`'s type can be a key of `kind` (an integer slot never holds a uuid). */
export function fitsKey(slot: JsonSchema | undefined, resource: Resource): boolean {
  const type = primaryType(slot);
  const kind = resource.key?.kind;
  if (kind === undefined || type === undefined) return kind !== undefined;
  if (kind === 'integer') return type === 'integer' || type === 'number' || type === 'string';
  return type === 'string';
}

/** A bare noun (`trip`, no `_id`) holds a key only when its schema says so as plainly: the key's own format, or both integers. */
export function plainlyKey(slot: JsonSchema | undefined, resource: Resource): boolean {
  const key = objectShape(resource.itemSchema).properties[resource.key!.property];
  const format = typeof slot === 'object' ? slot.format : undefined;
  if (resource.key!.kind === 'uuid') return format === 'uuid';
  if (resource.key!.kind === 'integer') return primaryType(slot) === 'integer';
  return format !== undefined && typeof key === 'object' && key.format === format;
}

/** Resources by the squashed singular nouns they go by: their path's last segment, else their item schema's component name. */
export class ResourceNames {
  readonly #byPath = new Map<string, Resource[]>();
  readonly #byComponent = new Map<string, Resource[]>();

  constructor(document: LoadedDocument, resources: readonly Resource[]) {
    const components = componentNames(document);
    const ranked = [...resources].sort((a, b) => rank(a) - rank(b));
    for (const resource of ranked) {
      if (!resource.key) continue;
      for (const noun of itemNames(resource.path)) add(this.#byPath, noun, resource);
      const component = components.get(resource.itemSchema);
      if (component) add(this.#byComponent, squashed(singularOf(component)), resource);
    }
  }

  /** The resource a noun names (`station`, `stations`, `Station`), the best ranked when several do. */
  named(words: readonly string[]): Resource | undefined {
    if (words.length === 0) return undefined;
    const nouns = [squashed(singularOf(words.join('_'))), squashed(words.join('_'))];
    for (const index of [this.#byPath, this.#byComponent])
      for (const noun of nouns) {
        const found = index.get(noun)?.[0];
        if (found) return found;
      }
    return undefined;
  }

  /**
   * The target a reference's name points at: `trip_id` → Trip's key, `origin_station_id` →
   * Station's key, `station_code` → Station's `code`, `trip` → Trip's key (a bare noun, when a
   * key fits the slot). Qualifiers in front are dropped one by one (`origin`, `return`…).
   */
  byName(name: string, slot: JsonSchema | undefined): ReferenceTarget | undefined {
    const words = wordsOf(name);
    if (words.length === 0 || (words.length === 1 && ID_WORDS.has(words[0]!))) return undefined;
    for (let start = 0; start < words.length; start += 1) {
      const rest = words.slice(start);
      const last = rest.at(-1)!;
      if (ID_WORDS.has(last)) {
        const resource = this.named(rest.slice(0, -1));
        if (resource && fitsKey(slot, resource)) return { resource, property: resource.key!.property };
        continue;
      }
      const property = this.#propertyTarget(rest);
      if (property) return property;
      // A bare noun is the whole name (`trip`), or a uuid (`origin_station`): `storage_per_project` is a number.
      const resource = this.named(rest);
      const plain = resource && plainlyKey(slot, resource) && (start === 0 || resource.key!.kind === 'uuid');
      if (plain) return { resource, property: resource.key!.property };
    }
    return undefined;
  }

  /** `station_code` → Station's `code`: a noun followed by one of its resource's properties. */
  #propertyTarget(words: readonly string[]): ReferenceTarget | undefined {
    if (words.length < 2) return undefined;
    const resource = this.named(words.slice(0, -1));
    if (!resource) return undefined;
    const wanted = words.at(-1)!;
    const property = Object.keys(objectShape(resource.itemSchema).properties).find((name) => squashed(name) === wanted);
    return property === undefined ? undefined : { resource, property };
  }

  /** "The ID of the origin station" → Station: the first resource noun within a few words after an id word. */
  byDescription(description: string | undefined): Resource | undefined {
    if (!description) return undefined;
    const words = wordsOf(description);
    for (let index = 0; index < words.length; index += 1) {
      if (!ID_MENTIONS.has(words[index]!)) continue;
      for (let at = index + 1; at < Math.min(words.length, index + 6); at += 1) {
        const found = this.named(words.slice(at, at + 2)) ?? this.named([words[at]!]);
        if (found) return found;
      }
    }
    return undefined;
  }
}

function add(index: Map<string, Resource[]>, noun: string, resource: Resource): void {
  const list = index.get(noun) ?? [];
  list.push(resource);
  index.set(noun, list);
}

/** Sources first: a collection with a list, top-level before nested, then document order. */
function rank(resource: Resource): number {
  return (resource.lists.length > 0 ? 0 : 10) + resource.parentParameters.length;
}
