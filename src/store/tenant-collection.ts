import { stringifyJson } from '../core/json.js';
import type { Random } from '../core/random.js';
import { randomUuid } from '../openapi/generate.js';
import { KeyIndex } from './key-index.js';
import type {
  Collection,
  CreateDraft,
  CreateResult,
  Filter,
  FullReason,
  KeySpec,
  ListOrder,
  StoredRecord,
  WriteResult,
} from './store-types.js';

// The store's shared types live in store-types.ts (no import cycle); re-exported for callers.
export type { Filter, FullReason, KeySpec, ListOrder, StoredRecord, WriteResult };

/** Memory used by the items created across every tenant. */
export class MemoryBudget {
  used = 0;
  constructor(readonly limit: number) {}
}

/** The bounds every collection of a store shares. */
export interface StoreLimits {
  /** Most items one collection of one tenant may hold, seeded ones included. */
  capacity: number;
  /** Most memory the items created in one tenant may take. */
  storeBytes: number;
  total: MemoryBudget;
}

/** The memory account of one tenant, shared by its collections. */
export interface TenantAccount {
  bytes: number;
  /** Told after every change of an item (the `--data` file saves then). */
  changed?: () => void;
}

/**
 * Makes positions of a collection's key sequence below `upTo` durable before a key there is issued,
 * and answers how far it reserved (at least `upTo`): the `--data` file keeps ids handed out after
 * its last save from being handed out again once kennel restarts after a crash.
 */
export type ReserveSequence = (upTo: number) => number;

/** What a stored item is estimated to cost: its JSON text and its fields (each about as long), and the objects. */
export function recordBytes(json: string): number {
  return 4 * json.length + 160;
}

/** A seeded (shared, uncharged) record. */
export function seededRecord(value: Record<string, unknown>, key: KeySpec): StoredRecord {
  return { key: String(value[key.property]), value, json: stringifyJson(value), bytes: 0 };
}

/** The items of one collection of one tenant, in creation order (seeded ones first). */
export class TenantCollection implements Collection {
  readonly #byKey = new KeyIndex<StoredRecord>();
  readonly #ordered: StoredRecord[];
  readonly #limits: StoreLimits;
  readonly #account: TenantAccount;
  readonly #key: KeySpec;
  readonly #random: Random;
  #nextInteger: number;
  /** UUIDs drawn from `#random` so far: a restored collection draws on from there, not again. */
  #draws = 0;
  /** Sequence positions below this may be issued without reserving more. */
  #reserved = 0;
  readonly #reserve: ReserveSequence | undefined;

  constructor(
    seeded: readonly StoredRecord[],
    key: KeySpec,
    limits: StoreLimits,
    account: TenantAccount,
    random: Random,
    reserve?: ReserveSequence,
  ) {
    this.#ordered = [...seeded];
    for (const stored of seeded) this.#byKey.set(stored.key, stored);
    this.#key = key;
    this.#limits = limits;
    this.#account = account;
    this.#random = random;
    this.#reserve = reserve;
    const integers = seeded.map((stored) => Number(stored.value[key.property])).filter(Number.isSafeInteger);
    this.#nextInteger = integers.reduce((max, value) => Math.max(max, value), 0) + 1;
  }

  get size(): number {
    return this.#ordered.length;
  }

  /** Every item, in creation order (seeded ones first): what a reload carries over. */
  records(): readonly StoredRecord[] {
    return this.#ordered;
  }

  /**
   * Where the key sequence stands (1 + the keys it issued beyond the seeded ones, counted from
   * the first free integer): the next integer key, or for UUID keys one more than the UUIDs drawn.
   */
  get sequence(): number {
    return this.#key.kind === 'uuid' ? this.#draws + 1 : this.#nextInteger;
  }

  /** Moves the key sequence on to `next` (never back): a restore, a reload, or ids reserved before a crash. */
  advanceSequence(next: number): void {
    if (this.#key.kind !== 'uuid') {
      this.#nextInteger = Math.max(this.#nextInteger, next);
      return;
    }
    while (this.#draws + 1 < next) {
      randomUuid(this.#random);
      this.#draws += 1;
    }
  }

  /** Every item in creation order, and where the key sequence stands: what a snapshot keeps. */
  state(): { items: readonly StoredRecord[]; next: number } {
    return { items: this.#ordered, next: this.sequence };
  }

  /** Replaces the items with a snapshot's (in order; `created` ones charged), and the sequence with `next`. */
  restore(items: readonly { value: Record<string, unknown>; created: boolean }[], next: number): void {
    for (const old of this.#ordered) this.#refund(old.bytes);
    this.#ordered.length = 0;
    this.#byKey.clear();
    for (const { value, created } of items) {
      const stored = created ? this.#record(value) : seededRecord(value, this.#key);
      this.#account.bytes += stored.bytes;
      this.#limits.total.used += stored.bytes;
      this.#ordered.push(stored);
      this.#byKey.set(stored.key, stored);
    }
    if (this.#key.kind === 'uuid') this.advanceSequence(next);
    else this.#nextInteger = next;
  }

  /** At most `limit` items whose properties equal every filter, newest or oldest first. */
  list(limit: number, filters: readonly Filter[] = [], order: ListOrder = 'newest-first'): StoredRecord[] {
    const items = this.#ordered;
    const found: StoredRecord[] = [];
    const step = order === 'newest-first' ? -1 : 1;
    for (
      let index = step === 1 ? 0 : items.length - 1;
      index >= 0 && index < items.length && found.length < limit;
      index += step
    ) {
      const stored = items[index]!;
      if (matches(stored, filters)) found.push(stored);
    }
    return found;
  }

  get(key: string): StoredRecord | undefined {
    return this.#byKey.get(key);
  }

  /** A key no item has here: the next integer (as text for string keys), or a fresh UUID. */
  newKey(): number | string {
    if (this.#key.kind === 'uuid') {
      let uuid: string;
      do {
        this.#reserveUpTo(this.#draws + 2);
        uuid = randomUuid(this.#random);
        this.#draws += 1;
      } while (this.#byKey.has(uuid));
      return uuid;
    }
    // Used up by insert, not here: a refused item takes no key. One conversion per key tried.
    let key = String(this.#nextInteger);
    while (this.#byKey.has(key)) key = String(++this.#nextInteger);
    this.#reserveUpTo(this.#nextInteger + 1);
    return this.#key.kind === 'integer' ? this.#nextInteger : key;
  }

  #reserveUpTo(upTo: number): void {
    if (this.#reserve && upTo > this.#reserved) this.#reserved = this.#reserve(upTo);
  }

  /** The responder's create: a taken sent key conflicts or is replaced; otherwise the next key is assigned. */
  create(draft: CreateDraft): CreateResult {
    const sent = draft.sent === undefined ? undefined : String(draft.sent);
    const taken = sent !== undefined && this.#byKey.has(sent);
    if (taken && draft.onTaken === 'conflict') return { ok: false, reason: 'taken' };
    const value = draft.build(draft.sent ?? this.newKey());
    return taken ? this.replace(sent, value)! : this.insert(value);
  }

  /** Stores a new item (its key already set); refused by count or memory as a value, not an exception. */
  insert(value: Record<string, unknown>): WriteResult {
    const { capacity } = this.#limits;
    if (this.#ordered.length >= capacity) return { ok: false, reason: 'items', limit: capacity };
    const charged = this.#charge(value, 0);
    if (!charged.ok) return charged;
    const { stored } = charged;
    // The server's own sequence moves on only for the keys it gave; keys clients chose are skipped by newKey.
    if (String(this.#nextInteger) === stored.key) this.#nextInteger += 1;
    this.#ordered.push(stored);
    this.#byKey.set(stored.key, stored);
    this.#account.changed?.();
    return charged;
  }

  /** Replaces the item under `key` in place (same position in lists). */
  replace(key: string, value: Record<string, unknown>): WriteResult | undefined {
    const old = this.#byKey.get(key);
    if (!old) return undefined;
    const charged = this.#charge(value, old.bytes);
    if (!charged.ok) return charged;
    this.#ordered[this.#ordered.indexOf(old)] = charged.stored;
    this.#byKey.set(key, charged.stored);
    this.#account.changed?.();
    return charged;
  }

  /** Forgets the item under `key` and gives it back; undefined when there was none. */
  remove(key: string): StoredRecord | undefined {
    const old = this.#byKey.get(key);
    if (!old) return undefined;
    this.#byKey.delete(key);
    this.#ordered.splice(this.#ordered.indexOf(old), 1);
    this.#refund(old.bytes);
    this.#account.changed?.();
    return old;
  }

  #refund(bytes: number): void {
    this.#account.bytes -= bytes;
    this.#limits.total.used -= bytes;
  }

  #record(value: Record<string, unknown>): StoredRecord {
    const json = stringifyJson(value);
    return { key: String(value[this.#key.property]), value, json, bytes: recordBytes(json) };
  }

  /** Builds the record and charges its memory, giving back `freed` (the item it replaces). */
  #charge(value: Record<string, unknown>, freed: number): WriteResult {
    const json = stringifyJson(value);
    const bytes = recordBytes(json);
    const { storeBytes, total } = this.#limits;
    const growth = bytes - freed;
    if (this.#account.bytes + growth > storeBytes) return { ok: false, reason: 'store-bytes', limit: storeBytes };
    if (total.used + growth > total.limit) return { ok: false, reason: 'total-bytes', limit: total.limit };
    this.#account.bytes += growth;
    total.used += growth;
    return { ok: true, stored: { key: String(value[this.#key.property]), value, json, bytes } };
  }
}

/**
 * Whether `stored` has every filter's value. A loop, not `filters.every(...)`: that made a closure
 * per item of every list page, garbage the young generation collects under load.
 */
function matches(stored: StoredRecord, filters: readonly Filter[]): boolean {
  for (let index = 0; index < filters.length; index += 1) {
    const [property, value] = filters[index]!;
    if (stored.value[property] !== value) return false;
  }
  return true;
}
