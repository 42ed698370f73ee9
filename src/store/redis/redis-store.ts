import { randomUUID } from 'node:crypto';
import { parseJson, stringifyJson } from '../../core/json.js';
import { tenantId, type ResourceStoreOptions } from '../resource-store.js';
import type { Collection, CreateDraft, CreateResult, ResetScope, Store, StoreStatus, Tenant } from '../store-types.js';
import {
  seededRecord,
  type Filter,
  type FullReason,
  type KeySpec,
  type ListOrder,
  type StoredRecord,
  type WriteResult,
} from '../tenant-collection.js';
import type { RedisLink } from './redis-link.js';
import {
  CREATE_SCRIPT,
  GET_SCRIPT,
  LIST_SCRIPT,
  REMOVE_SCRIPT,
  REPLACE_SCRIPT,
  RESET_SCRIPT,
} from './redis-scripts.js';

/** Every key kennel writes starts with this. */
const PREFIX = 'kennel:';

/**
 * A stored item read back from Redis: its value is parsed only when a view or a filter needs it.
 * A class, not an object literal with a getter: a literal makes a closure, its context and an
 * accessor pair for every item of every list, about 15 KB per 20-item page under load.
 */
class ReadRecord implements StoredRecord {
  readonly bytes = 0;
  #value: Record<string, unknown> | undefined;

  constructor(
    readonly key: string,
    readonly json: string,
  ) {}

  get value(): Record<string, unknown> {
    if (this.#value === undefined) {
      const parsed = parseJson(this.json);
      this.#value = (parsed.ok ? parsed.value : {}) as Record<string, unknown>;
    }
    return this.#value;
  }
}

function recordOf(key: string, json: string): StoredRecord {
  return new ReadRecord(key, json);
}

/** What the estimate of `json`'s memory (4 bytes per UTF-16 unit) needs beyond Lua's byte length. */
function adjustOf(json: string): string {
  return String(json.length - Buffer.byteLength(json));
}

function limitArg(limit: number): string {
  return String(Number.isFinite(limit) ? limit : -1);
}

/**
 * Every tenant's items in one Redis server, shared by every kennel replica pointing at it. The
 * same behaviour as the in-memory store: seeded per tenant on first touch, ids assigned
 * atomically (Lua scripts), capacity and byte budgets exact across replicas, reset and seed alike.
 */
export class RedisStore implements Store {
  readonly #link: RedisLink;
  readonly #options: ResourceStoreOptions;
  readonly #seeded = new Map<string, readonly StoredRecord[]>();
  /** Tenant ids by API key, hashed once (tenants are the accepted keys: a bounded set). */
  readonly #ids = new Map<string, string>();
  /** Stands for a server-assigned key in an item's JSON until the create script puts the key there. */
  readonly sentinel = `kennel-key-${randomUUID()}`;

  /** The limits as script arguments (no limit: a number no store reaches). */
  readonly limitsArgs: { capacity: string; storeBytes: string; total: string };

  constructor(link: RedisLink, options: ResourceStoreOptions) {
    this.#link = link;
    this.#options = options;
    const arg = (limit: number | undefined) =>
      limit === undefined || !Number.isFinite(limit) ? '1e300' : String(limit);
    this.limitsArgs = {
      capacity: arg(options.capacity),
      storeBytes: arg(options.storeBytes),
      total: arg(options.totalBytes),
    };
  }

  /** The limit a refusal names. */
  limitOf(reason: FullReason): number {
    if (reason === 'items') return this.#options.capacity;
    return (reason === 'store-bytes' ? this.#options.storeBytes : this.#options.totalBytes) ?? Infinity;
  }

  /** Sets the seed when Redis has none and writes the seeded items of the current seed once. */
  async prepare(): Promise<void> {
    await this.#link.command(['SET', `${PREFIX}seed`, String(this.#options.seed), 'NX']);
    await this.#writeTemplates(Number(await this.#link.command(['GET', `${PREFIX}seed`])));
  }

  async #writeTemplates(seed: number): Promise<void> {
    for (const [path, spec] of this.#options.collections) {
      const tpl = `${PREFIX}tpl:${seed}:${path}`;
      if (Number(await this.#link.command(['EXISTS', `${tpl}:next`])) === 1) continue;
      const records = spec.seed(seed).map((value) => seededRecord(value, spec.key));
      const integers = records.map((record) => Number(record.value[spec.key.property])).filter(Number.isSafeInteger);
      const next = integers.reduce((max, value) => Math.max(max, value), 0) + 1;
      const commands: string[][] = [['DEL', tpl, `${tpl}:order`, `${tpl}:next`]];
      if (records.length > 0) {
        commands.push(['HSET', tpl, ...records.flatMap((record) => [record.key, record.json])]);
        commands.push(['RPUSH', `${tpl}:order`, ...records.map((record) => record.key)]);
      }
      commands.push(['SET', `${tpl}:next`, String(next)]);
      await this.#link.transaction(commands);
    }
  }

  /** Runs a script of a tenant's collection; seeds the store first when Redis lost its seed (a FLUSHALL). */
  async run(script: string, base: readonly string[], args: readonly string[]): Promise<unknown> {
    try {
      return await this.#link.script(script, [...base, ...args]);
    } catch (error) {
      if (!(error instanceof Error) || !error.message.includes('KENNEL_NOSEED')) throw error;
      await this.prepare();
      return this.#link.script(script, [...base, ...args]);
    }
  }

  tenant(key: string): Tenant {
    let id = this.#ids.get(key);
    if (id === undefined) this.#ids.set(key, (id = tenantId(key)));
    return {
      collection: (path, parent = '') => {
        const spec = this.#options.collections.get(path);
        if (!spec) throw new Error(`no collection ${path} in this store`);
        const name = parent === '' ? path : `${path}\u0000${parent}`;
        return new RedisCollection(this, [PREFIX, id, name, path, parent === '' ? '0' : '1'], spec.key);
      },
    };
  }

  seeded(path: string): readonly StoredRecord[] {
    let records = this.#seeded.get(path);
    if (!records) {
      const spec = this.#options.collections.get(path);
      if (!spec) throw new Error(`no collection ${path} in this store`);
      records = spec.seed(this.#options.seed).map((value) => seededRecord(value, spec.key));
      this.#seeded.set(path, records);
    }
    return records;
  }

  async reset(scope: ResetScope = {}): Promise<void> {
    if (scope.tenant !== undefined) {
      await this.#link.script(RESET_SCRIPT, [PREFIX, tenantId(scope.tenant), '']);
      return;
    }
    if (scope.seed !== undefined) await this.#writeTemplates(scope.seed);
    await this.#link.script(RESET_SCRIPT, [PREFIX, '', scope.seed === undefined ? '' : String(scope.seed)]);
  }

  async status(): Promise<StoreStatus> {
    const seed = await this.#link.command(['GET', `${PREFIX}seed`]);
    const tenants = await this.#link.command(['SCARD', `${PREFIX}tenants`]);
    return { kind: 'redis', seed: Number(seed ?? this.#options.seed), tenants: Number(tenants) };
  }

  close(): Promise<void> {
    return this.#link.close();
  }
}

type Reply = [status: string, key?: string, json?: string];

/** One tenant's collection in Redis: every method is one script, so one round trip. */
class RedisCollection implements Collection {
  readonly #store: RedisStore;
  readonly #base: readonly string[];
  readonly #key: KeySpec;

  constructor(store: RedisStore, base: readonly string[], key: KeySpec) {
    this.#store = store;
    this.#base = base;
    this.#key = key;
  }

  async list(limit: number, filters: readonly Filter[], order: ListOrder): Promise<StoredRecord[]> {
    const wanted = filters.length === 0 ? '' : stringifyJson(filters);
    const flat = (await this.#store.run(LIST_SCRIPT, this.#base, [limitArg(limit), order, wanted])) as string[];
    const records: StoredRecord[] = [];
    for (let index = 0; index < flat.length; index += 2) records.push(recordOf(flat[index]!, flat[index + 1]!));
    return records;
  }

  async get(key: string): Promise<StoredRecord | undefined> {
    const json = (await this.#store.run(GET_SCRIPT, this.#base, [key])) as string | null;
    return json === null ? undefined : recordOf(key, json);
  }

  async create(draft: CreateDraft): Promise<CreateResult> {
    const { sentinel } = this.#store;
    const json = stringifyJson(draft.build(draft.sent ?? sentinel));
    const { capacity, storeBytes, total } = this.#store.limitsArgs;
    const reply = (await this.#store.run(CREATE_SCRIPT, this.#base, [
      draft.sent === undefined ? '' : String(draft.sent),
      draft.onTaken,
      json,
      sentinel,
      this.#key.kind,
      adjustOf(json),
      capacity,
      storeBytes,
      total,
    ])) as Reply;
    if (reply[0] === 'taken') return { ok: false, reason: 'taken' };
    return this.#written(reply);
  }

  async replace(key: string, value: Record<string, unknown>): Promise<WriteResult | undefined> {
    const json = stringifyJson(value);
    const { storeBytes, total } = this.#store.limitsArgs;
    const reply = (await this.#store.run(REPLACE_SCRIPT, this.#base, [
      key,
      json,
      adjustOf(json),
      storeBytes,
      total,
    ])) as Reply;
    return reply[0] === 'gone' ? undefined : this.#written(reply);
  }

  async remove(key: string): Promise<StoredRecord | undefined> {
    const reply = (await this.#store.run(REMOVE_SCRIPT, this.#base, [key])) as Reply;
    return reply[0] === 'gone' ? undefined : recordOf(reply[1]!, reply[2]!);
  }

  #written(reply: Reply): WriteResult {
    if (reply[0] === 'ok') return { ok: true, stored: recordOf(reply[1]!, reply[2]!) };
    const reason = reply[1] as FullReason;
    return { ok: false, reason, limit: this.#store.limitOf(reason) };
  }
}
