import { escapeToken } from '../openapi/json-pointer.js';
import type { CollectionSpec } from './store-types.js';

/** What the first field of a snapshot file says it is. */
export const SNAPSHOT_FORMAT = 'kennel store snapshot';
export const SNAPSHOT_VERSION = 1;

/** An item as a snapshot keeps it: `created` ones count against the memory budgets, seeded ones do not. */
export interface SnapshotItem {
  value: Record<string, unknown>;
  created: boolean;
}

/** One collection of one tenant: its items in creation order and its next integer key. */
export interface CollectionSnapshot {
  next: number;
  items: SnapshotItem[];
}

/** The whole in-memory store. Tenants are named by a hash of their API key: keys are secrets. */
export interface StoreSnapshot {
  format: typeof SNAPSHOT_FORMAT;
  version: typeof SNAPSHOT_VERSION;
  seed: number;
  /** Tenant id → collection name (`/pets`, or `/users/{id}/posts` NUL parent keys) → collection. */
  tenants: Record<string, Record<string, CollectionSnapshot>>;
}

export type SnapshotRead = { ok: true; snapshot: StoreSnapshot } | { ok: false; pointer: string; message: string };

class Invalid extends Error {
  constructor(
    readonly pointer: string,
    message: string,
  ) {
    super(message);
  }
}

function objectAt(value: unknown, pointer: string, what: string): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new Invalid(pointer, `${what} must be a JSON object`);
  return value as Record<string, unknown>;
}

function countAt(value: unknown, pointer: string, what: string, min: number): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < min)
    throw new Invalid(pointer, `${what} must be an integer from ${min}`);
  return value;
}

const TENANT_ID = /^[0-9a-f]{32}$/;

function readCollection(raw: unknown, at: string, spec: CollectionSpec): CollectionSnapshot {
  const { next, items, ...rest } = objectAt(raw, at, 'a collection');
  const extra = Object.keys(rest)[0];
  if (extra !== undefined)
    throw new Invalid(`${at}/${escapeToken(extra)}`, 'is not a field of a collection (next, items)');
  if (!Array.isArray(items)) throw new Invalid(`${at}/items`, 'items must be an array');
  const keys = new Set<string>();
  const read = items.map((item, index) => {
    const where = `${at}/items/${index}`;
    const { value, created } = objectAt(item, where, 'an item');
    const fields = objectAt(value, `${where}/value`, 'an item value');
    if (typeof created !== 'boolean') throw new Invalid(`${where}/created`, 'created must be true or false');
    const key = fields[spec.key.property];
    if (key === undefined || key === null)
      throw new Invalid(`${where}/value`, `an item value must have its key ${spec.key.property}`);
    if (keys.has(String(key)))
      throw new Invalid(`${where}/value/${escapeToken(spec.key.property)}`, `key ${String(key)} appears twice`);
    keys.add(String(key));
    return { value: fields, created };
  });
  return { next: countAt(next, `${at}/next`, 'next', 1), items: read };
}

/**
 * Checks a parsed snapshot against the collections this store keeps: a broken or foreign file is
 * refused with the JSON pointer of the first problem, never half-loaded.
 */
export function readSnapshot(value: unknown, collections: ReadonlyMap<string, CollectionSpec>): SnapshotRead {
  try {
    const { format, version, seed, tenants, ...rest } = objectAt(value, '', 'a snapshot');
    if (format !== SNAPSHOT_FORMAT) throw new Invalid('/format', `format must be "${SNAPSHOT_FORMAT}"`);
    if (version !== SNAPSHOT_VERSION) throw new Invalid('/version', `version must be ${SNAPSHOT_VERSION}`);
    const extra = Object.keys(rest)[0];
    if (extra !== undefined) throw new Invalid(`/${escapeToken(extra)}`, 'is not a field of a snapshot');
    const read: StoreSnapshot['tenants'] = {};
    for (const [id, raw] of Object.entries(objectAt(tenants, '/tenants', 'tenants'))) {
      const at = `/tenants/${escapeToken(id)}`;
      if (!TENANT_ID.test(id)) throw new Invalid(at, 'a tenant id must be 32 hex digits (a hash of its API key)');
      const tenant: Record<string, CollectionSnapshot> = {};
      for (const [name, collection] of Object.entries(objectAt(raw, at, 'a tenant'))) {
        const where = `${at}/${escapeToken(name)}`;
        const spec = collections.get(name.split('\u0000')[0]!);
        if (!spec) throw new Invalid(where, `the document has no stateful collection ${name.split('\u0000')[0]}`);
        tenant[name] = readCollection(collection, where, spec);
      }
      read[id] = tenant;
    }
    return {
      ok: true,
      snapshot: { format, version, seed: countAt(seed, '/seed', 'seed', 0), tenants: read },
    };
  } catch (error) {
    if (error instanceof Invalid) return { ok: false, pointer: error.pointer, message: error.message };
    throw error;
  }
}
