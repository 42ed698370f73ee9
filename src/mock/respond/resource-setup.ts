import { ToolError } from '../../core/tool-error.js';
import { fragmentToken } from '../../openapi/json-pointer.js';
import type { LoadedDocument } from '../../openapi/load.js';
import { inferResources, type Resource, type ResourceModel } from '../../openapi/resource-model.js';
import { ResourceStore, type CollectionSpec, type ResourceStoreOptions } from '../../store/resource-store.js';
import type { Store } from '../../store/store-types.js';
import { seedFromDocument } from '../../store/resource-seed.js';

/** Items a named seeder makes for a seed (the Pet Store's `pets`: fixtures and faker names). */
export type Seeder = (seed: number) => readonly Record<string, unknown>[];

/** The document extension that attaches seeders to collections: `x-kennel-resources: {/pets: {seeder: pets}}`. */
export const RESOURCES_EXTENSION = 'x-kennel-resources';

export interface ResourceSetup {
  model: ResourceModel;
  store: Store;
}

/** Makes the store for the document's collections: in memory unless told otherwise (`--store redis://`). */
export type StoreFactory = (options: ResourceStoreOptions) => Store;

const memoryStore: StoreFactory = (options) => new ResourceStore(options);

export interface StoreBounds {
  seed: number;
  capacity: number;
  storeBytes?: number;
  totalBytes?: number;
}

/** Collection path → seeder name, as the document's `x-kennel-resources` says; ToolErrors name its line. */
function profilesOf(document: LoadedDocument, resources: readonly Resource[], seeders: Record<string, Seeder>) {
  const raw = document.document[RESOURCES_EXTENSION];
  const profiles = new Map<string, Seeder>();
  if (raw === undefined) return profiles;
  const where = `#/${RESOURCES_EXTENSION}`;
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw))
    throw new ToolError(`${RESOURCES_EXTENSION} must map collection paths to {seeder: name}`, document.locate(where));
  for (const [path, profile] of Object.entries(raw as Record<string, unknown>)) {
    const at = `${where}/${fragmentToken(path)}`;
    const name = (profile as { seeder?: unknown } | null)?.seeder;
    const seeder = typeof name === 'string' ? seeders[name] : undefined;
    if (!seeder) {
      const known = Object.keys(seeders).join(', ') || 'none';
      throw new ToolError(
        `${RESOURCES_EXTENSION} ${path}: seeder must name a known seeder (${known})`,
        document.locate(at),
      );
    }
    if (!resources.some((resource) => resource.path === path && resource.stateful))
      throw new ToolError(
        `${RESOURCES_EXTENSION} ${path}: the document has no stateful collection at this path`,
        document.locate(at),
      );
    profiles.set(path, seeder);
  }
  return profiles;
}

/**
 * The resource model of a document and the store that keeps its stateful collections: seeded by
 * the seeder the document names for a collection, else from the document's examples and schemas.
 */
export function resourceSetup(
  document: LoadedDocument,
  seeders: Record<string, Seeder>,
  bounds: StoreBounds,
  makeStore: StoreFactory = memoryStore,
): ResourceSetup {
  const model = inferResources(document);
  const profiles = profilesOf(document, model.resources, seeders);
  const collections = new Map<string, CollectionSpec>();
  for (const resource of model.resources) {
    if (!resource.stateful) continue;
    const seeder = profiles.get(resource.path);
    collections.set(resource.path, {
      key: resource.key!,
      seed: seeder ?? ((seed) => seedFromDocument(resource, seed, document.dereferenced)),
    });
  }
  return { model, store: makeStore({ collections, ...bounds }) };
}
