import type { IdKind } from '../openapi/resource-model.js';

/** One item with its JSON text, computed once: reads and lists only concatenate cached text. */
export interface StoredRecord {
  /** The key's value as text (`"7"`, a UUID, a user name): how the item is found. */
  readonly key: string;
  readonly value: Readonly<Record<string, unknown>>;
  readonly json: string;
  /** Estimated memory charged to the tenant: 0 for seeded items (shared by every tenant). */
  readonly bytes: number;
}

/** Order of list results; both are stable. */
export type ListOrder = 'newest-first' | 'oldest-first';

/** Why a store refuses an item: the collection's item count, its tenant's memory, or all tenants' memory. */
export type FullReason = 'items' | 'store-bytes' | 'total-bytes';

export type WriteResult = { ok: true; stored: StoredRecord } | { ok: false; reason: FullReason; limit: number };

/** A key and how new keys are made. */
export interface KeySpec {
  property: string;
  kind: IdKind;
}

/** A property that must equal a value for an item to be listed. */
export type Filter = readonly [property: string, value: unknown];

/** A collection the store keeps: its key, and the items every tenant starts with for a seed. */
export interface CollectionSpec {
  key: KeySpec;
  /** Seeded items for a seed (called once per seed, shared by tenants: seeded items are never mutated). */
  seed(seed: number): readonly Record<string, unknown>[];
}

/** A value now (the in-memory store) or later (the Redis store): the memory path never pays for a promise. */
export type MaybePromise<T> = T | Promise<T>;

/** Applies `next` to `value`, synchronously when `value` is not a promise. */
export function andThen<T, U>(value: MaybePromise<T>, next: (value: T) => MaybePromise<U>): MaybePromise<U> {
  return value instanceof Promise ? value.then(next) : next(value);
}

/** A create request: the key the client sent (if it may choose one) and how to build the item under a key. */
export interface CreateDraft {
  /** The key the client sent; undefined when the store assigns the next one. */
  sent: unknown;
  /** When `sent` is taken: `conflict` refuses (a user name), `replace` stores over it (the Swagger Petstore's way). */
  onTaken: 'conflict' | 'replace';
  /** The item to store under `key` (its key first): called once, with the sent or the assigned key. */
  build(key: unknown): Record<string, unknown>;
}

/** What a create did: stored, refused as full, or refused because the sent key is taken. */
export type CreateResult = WriteResult | { ok: false; reason: 'taken' };

/** The items of one collection of one tenant, whatever keeps them. */
export interface Collection {
  /** At most `limit` items whose properties equal every filter, newest or oldest first. */
  list(limit: number, filters: readonly Filter[], order: ListOrder): MaybePromise<StoredRecord[]>;
  get(key: string): MaybePromise<StoredRecord | undefined>;
  /** Assigns the key (when the client sent none) and stores the item, atomically. */
  create(draft: CreateDraft): MaybePromise<CreateResult>;
  /** Replaces the item under `key` in place; undefined when there is none. */
  replace(key: string, value: Record<string, unknown>): MaybePromise<WriteResult | undefined>;
  /** Forgets the item under `key` and gives it back; undefined when there was none. */
  remove(key: string): MaybePromise<StoredRecord | undefined>;
}

/** One tenant's collections. */
export interface Tenant {
  /** The collection at `path`; a sub-resource's collection per parent (`parent`: its parent keys, joined). */
  collection(path: string, parent?: string): Collection;
}

/** What a reset forgets: one tenant, or every tenant (re-seeded from `seed` when given). */
export interface ResetScope {
  seed?: number;
  tenant?: string;
}

/** The store's state as the health endpoint shows it. */
export interface StoreStatus {
  /** `memory` or `redis`. */
  kind: string;
  seed: number;
  /** Tenants that hold state now. */
  tenants: number;
}

/** Every tenant's items: in memory (the default) or in Redis (shared by replicas). One interface. */
export interface Store {
  tenant(key: string): Tenant;
  /** The items `path` starts with for the current seed (the start-up banner counts them). */
  seeded(path: string): readonly StoredRecord[];
  reset(scope?: ResetScope): MaybePromise<void>;
  status(): MaybePromise<StoreStatus>;
  /** Releases connections; the in-memory store has none. */
  close(): Promise<void>;
}
