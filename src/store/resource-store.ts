import { createHash } from 'node:crypto';
import { stringifyJson } from '../core/json.js';
import { Random } from '../core/random.js';
import { SNAPSHOT_FORMAT, SNAPSHOT_VERSION, type CollectionSnapshot, type StoreSnapshot } from './store-snapshot.js';
import {
  MemoryBudget,
  recordBytes,
  seededRecord,
  TenantCollection,
  type ReserveSequence,
  type StoreLimits,
  type StoredRecord,
  type TenantAccount,
} from './tenant-collection.js';
import type { CollectionSpec, ResetScope, Store, StoreStatus, Tenant } from './store-types.js';

export type { CollectionSpec };

export interface ResourceStoreOptions {
  /** The collections, by collection path (`/pets`, `/users/{userId}/posts`). */
  collections: ReadonlyMap<string, CollectionSpec>;
  seed: number;
  /** Most items per collection and tenant, seeded ones included. */
  capacity: number;
  /** Most estimated memory of the items created in one tenant (default: unbounded). */
  storeBytes?: number;
  /** Most estimated memory of the items created in all tenants together (default: unbounded). */
  totalBytes?: number;
}

/** A stable 32-bit hash of text (FNV-1a), so that each tenant's generated keys differ yet repeat per seed. */
function hashOf(text: string): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index += 1) hash = Math.imul(hash ^ text.charCodeAt(index), 0x01000193);
  return hash >>> 0;
}

/** A tenant's id in snapshots: a hash of its API key, never the key itself (keys are secrets). */
export function tenantId(name: string): string {
  return createHash('sha256').update(name).digest('hex').slice(0, 32);
}

/** One tenant's collections, created on first use. */
export class TenantStore implements Tenant {
  readonly #collections = new Map<string, TenantCollection>();
  readonly #account: TenantAccount;
  readonly #store: ResourceStore;
  readonly #name: string;

  constructor(store: ResourceStore, name: string) {
    this.#store = store;
    this.#name = name;
    this.#account = { bytes: 0, changed: () => store.onChange?.() };
  }

  /** Every collection this tenant touched, by name, as a snapshot keeps it. */
  snapshot(): Record<string, CollectionSnapshot> {
    const out: Record<string, CollectionSnapshot> = {};
    for (const [name, collection] of this.#collections) {
      const { items, next } = collection.state();
      out[name] = { next, items: items.map((stored) => ({ value: stored.value, created: stored.bytes > 0 })) };
    }
    return out;
  }

  /** Puts a snapshot's collections back. */
  restore(saved: Record<string, CollectionSnapshot>): void {
    for (const [name, { items, next }] of Object.entries(saved)) {
      const [path, ...parent] = name.split('\u0000');
      this.collection(path!, parent.join('\u0000')).restore(items, next);
    }
  }

  /** Estimated memory of the items created here (not the seeded ones). */
  get bytes(): number {
    return this.#account.bytes;
  }

  /**
   * The collection at `path`; a sub-resource's collection per parent (`parent` is its parent keys,
   * joined). Top-level collections start with the seeded items, sub-collections empty.
   */
  collection(path: string, parent = ''): TenantCollection {
    const name = parent === '' ? path : `${path}\u0000${parent}`;
    let collection = this.#collections.get(name);
    if (!collection) {
      const spec = this.#store.spec(path);
      const seeded = parent === '' ? this.#store.seeded(path) : [];
      collection = new TenantCollection(
        seeded,
        spec.key,
        this.#store.limits,
        this.#account,
        this.#randomOf(name),
        this.#reserverOf(name),
      );
      this.#collections.set(name, collection);
    }
    return collection;
  }

  /** Each collection draws its UUIDs from its own sequence, the same for a seed, tenant and collection. */
  #randomOf(name: string): Random {
    return new Random(hashOf(`${this.#store.seed}\u0000${this.#name}\u0000${name}`));
  }

  /** The store's reservation hook, for one collection (none when nothing keeps the store). */
  #reserverOf(name: string): ReserveSequence | undefined {
    const store = this.#store;
    if (!store.onReserve) return undefined;
    return (upTo) => store.onReserve?.(this.#name, name, upTo) ?? upTo;
  }

  /** The collections this tenant has used: collection path, parent keys ('' for top level), items, sequence. */
  *collections(): Generator<CollectionItems> {
    for (const [name, collection] of this.#collections) {
      const [path, parent = ''] = name.split('\u0000');
      yield { path: path!, parent, records: collection.records(), next: collection.sequence };
    }
  }

  /**
   * Puts a collection's items back as they were (a reload); their memory is charged again, and its
   * key sequence goes on from where it was (a deleted item's id is not handed out again).
   */
  restoreCollection({ path, parent, records, next }: CollectionItems): void {
    const name = parent === '' ? path : `${path}\u0000${parent}`;
    const key = this.#store.spec(path).key;
    const bytes = records.reduce((sum, record) => sum + record.bytes, 0);
    this.#account.bytes += bytes;
    this.#store.limits.total.used += bytes;
    const { limits } = this.#store;
    const collection = new TenantCollection(
      records,
      key,
      limits,
      this.#account,
      this.#randomOf(name),
      this.#reserverOf(name),
    );
    if (next !== undefined) collection.advanceSequence(next);
    this.#collections.set(name, collection);
  }
}

/** One tenant's items of one collection, as `TenantStore.collections()` lists them. */
export interface CollectionItems {
  path: string;
  parent: string;
  records: readonly StoredRecord[];
  /** Where its key sequence stood (`TenantCollection.sequence`); absent: from its items. */
  next?: number;
}

/** Every tenant's items. Tenants are created on first use, each seeded identically. */
/** A tenant restored from a snapshot but not yet used (its API key is known only by its hash). */
interface SavedTenant {
  collections: Record<string, CollectionSnapshot>;
  /** Memory of its created items, charged to the total until it is used and charged itself. */
  bytes: number;
}

export class ResourceStore implements Store {
  readonly #tenants = new Map<string, TenantStore>();
  readonly #saved = new Map<string, SavedTenant>();
  /** Told after every change of an item and every reset (the `--data` file saves then). */
  onChange: (() => void) | undefined;
  /**
   * Told before a collection issues a key at or past what it reserved: makes the positions below
   * `upTo` of tenant `tenant`'s collection `collection` durable and answers how far it reserved.
   * Set before the first tenant is used (collections read it when they are made).
   */
  onReserve: ((tenant: string, collection: string, upTo: number) => number) | undefined;
  readonly #options: ResourceStoreOptions;
  readonly #seeded = new Map<string, readonly StoredRecord[]>();
  readonly limits: StoreLimits;
  #seed: number;

  constructor(options: ResourceStoreOptions) {
    this.#options = options;
    this.#seed = options.seed;
    this.limits = {
      capacity: options.capacity,
      storeBytes: options.storeBytes ?? Infinity,
      total: new MemoryBudget(options.totalBytes ?? Infinity),
    };
  }

  /** Estimated memory of the items created in every tenant. */
  get bytes(): number {
    return this.limits.total.used;
  }

  get seed(): number {
    return this.#seed;
  }

  get collections(): ReadonlyMap<string, CollectionSpec> {
    return this.#options.collections;
  }

  /** The tenants that have been used, by name. */
  tenants(): IterableIterator<[string, TenantStore]> {
    return this.#tenants.entries();
  }

  get tenantCount(): number {
    return this.#tenants.size + this.#saved.size;
  }

  status(): StoreStatus {
    return { kind: 'memory', seed: this.#seed, tenants: this.tenantCount };
  }

  async close(): Promise<void> {}

  tenant(key: string): TenantStore {
    let tenant = this.#tenants.get(key);
    if (!tenant) {
      tenant = new TenantStore(this, key);
      this.#tenants.set(key, tenant);
      if (this.#saved.size > 0) this.#claim(tenant, tenantId(key));
    }
    return tenant;
  }

  #claim(tenant: TenantStore, id: string): void {
    const saved = this.#saved.get(id);
    if (!saved) return;
    this.#saved.delete(id);
    this.limits.total.used -= saved.bytes;
    tenant.restore(saved.collections);
  }

  /** The whole store, for the `--data` file. */
  snapshot(): StoreSnapshot {
    const tenants: StoreSnapshot['tenants'] = {};
    for (const [id, saved] of this.#saved) tenants[id] = saved.collections;
    for (const [name, tenant] of this.#tenants) tenants[tenantId(name)] = tenant.snapshot();
    return { format: SNAPSHOT_FORMAT, version: SNAPSHOT_VERSION, seed: this.#seed, tenants };
  }

  /** Replaces everything with a snapshot (checked by readSnapshot): its seed, and every tenant's items. */
  restore(snapshot: StoreSnapshot): void {
    this.reset({ seed: snapshot.seed });
    for (const [id, collections] of Object.entries(snapshot.tenants)) {
      let bytes = 0;
      for (const { items } of Object.values(collections))
        for (const item of items) if (item.created) bytes += recordBytes(stringifyJson(item.value));
      this.#saved.set(id, { collections, bytes });
      this.limits.total.used += bytes;
    }
  }

  /**
   * Moves key sequences on to at least the given positions (tenant id → collection name → next):
   * the reservations of a kennel that was killed. A collection the snapshot did not have yet
   * starts from its seeded items.
   */
  raiseSequences(floors: Readonly<Record<string, Readonly<Record<string, number>>>>): void {
    for (const [id, collections] of Object.entries(floors)) {
      const saved = this.#saved.get(id) ?? { collections: {}, bytes: 0 };
      for (const [name, next] of Object.entries(collections)) {
        const [path, ...parent] = name.split('\u0000');
        if (!this.#options.collections.has(path!)) continue;
        const present = saved.collections[name];
        // Seeded values are shared and never changed, so the restored collection may hold them too.
        const seeded = parent.length === 0 ? this.seeded(path!).map(({ value }) => ({ value, created: false })) : [];
        saved.collections[name] = present
          ? { ...present, next: Math.max(present.next, next) }
          : { items: seeded, next };
      }
      this.#saved.set(id, saved);
    }
  }

  /** The collection kept at `path`; throws for a path the store was not given (a wiring bug). */
  spec(path: string): CollectionSpec {
    const spec = this.#options.collections.get(path);
    if (!spec) throw new Error(`no collection ${path} in this store`);
    return spec;
  }

  /** The seeded items of `path` for the current seed, computed once and shared by every tenant. */
  seeded(path: string): readonly StoredRecord[] {
    let records = this.#seeded.get(path);
    if (!records) {
      const spec = this.spec(path);
      records = spec.seed(this.#seed).map((value) => seededRecord(value, spec.key));
      this.#seeded.set(path, records);
    }
    return records;
  }

  /** Forgets every tenant's items (or one tenant's); the next access re-seeds, with `seed` if given. */
  reset(options: ResetScope = {}): void {
    this.onChange?.();
    if (options.tenant !== undefined) {
      this.limits.total.used -= this.#tenants.get(options.tenant)?.bytes ?? 0;
      this.#tenants.delete(options.tenant);
      const id = tenantId(options.tenant);
      this.limits.total.used -= this.#saved.get(id)?.bytes ?? 0;
      this.#saved.delete(id);
      return;
    }
    if (options.seed !== undefined && options.seed !== this.#seed) {
      this.#seed = options.seed;
      this.#seeded.clear();
    }
    this.#tenants.clear();
    this.#saved.clear();
    this.limits.total.used = 0;
  }
}
