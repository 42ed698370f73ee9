import type { DnsAnswer, QueryType, ResourceRecord } from './dns-types.js';
import type { DnsWorld } from './dns-world.js';

/** A cached answer and its life span (virtual ms). */
export interface CacheEntry {
  name: string;
  type: QueryType;
  answer: DnsAnswer;
  storedAt: number;
  expiresAt: number;
}

/** An answer as a resolver gives it: TTLs count down, and it says whether it came from cache. */
export interface ResolvedAnswer extends DnsAnswer {
  fromCache: boolean;
  /** When this answer stops being served from cache (for "retry after" evidence). */
  expiresAt: number;
}

/** How long an answer may be cached: the smallest TTL, or for negative answers min(SOA TTL, SOA MINIMUM) (RFC 2308). */
export function cacheSeconds(answer: DnsAnswer): number {
  if (answer.rcode === 'SERVFAIL') return 0;
  if (answer.answers.length > 0) return Math.min(...answer.answers.map((record) => record.ttl));
  const soa = answer.authority.find((record) => record.type === 'SOA');
  if (!soa || typeof soa.data !== 'object' || !('minimum' in soa.data)) return 0;
  return Math.min(soa.ttl, soa.data.minimum);
}

function aged(records: readonly ResourceRecord[], elapsedSeconds: number): ResourceRecord[] {
  return records.map((record) => ({ ...record, ttl: Math.max(0, record.ttl - elapsedSeconds) }));
}

/** How many answers a resolver keeps by default: far more than any scenario asks, a few MB at most. */
export const DEFAULT_CACHE_ENTRIES = 10_000;

/**
 * A recursive resolver with a TTL cache and negative caching: it keeps serving what it learned
 * until the TTL runs out, which is why a fixed record stays invisible for hours ("propagation").
 * The cache holds at most `maxEntries` answers: when full, expired answers go first, then the least
 * recently used (as real resolvers do), so a stream of distinct names cannot grow it without bound.
 */
export class CachingResolver {
  /** In use order: least recently used first. */
  readonly #cache = new Map<string, CacheEntry>();
  readonly #maxEntries: number;
  /** No entry expires before this (it may be earlier than the true minimum): sweeping sooner finds nothing. */
  #nextExpiry = Infinity;

  constructor(
    readonly id: string,
    private readonly world: DnsWorld,
    options: { maxEntries?: number } = {},
  ) {
    this.#maxEntries = Math.max(1, options.maxEntries ?? DEFAULT_CACHE_ENTRIES);
  }

  /** Answers at virtual time `at` (which must not go backwards between calls). */
  lookup(name: string, type: QueryType, at: number): ResolvedAnswer {
    const key = `${name}|${type}`;
    const cached = this.#cache.get(key);
    if (cached && cached.expiresAt > at) {
      this.#touch(key, cached);
      const elapsed = Math.floor((at - cached.storedAt) / 1000);
      return {
        ...cached.answer,
        answers: aged(cached.answer.answers, elapsed),
        authority: aged(cached.answer.authority, elapsed),
        fromCache: true,
        expiresAt: cached.expiresAt,
      };
    }
    const fresh = this.world.authoritative(name, type, at);
    const expiresAt = at + cacheSeconds(fresh) * 1000;
    this.#cache.delete(key);
    if (expiresAt > at) this.#store(key, { name, type, answer: fresh, storedAt: at, expiresAt }, at);
    return { ...fresh, fromCache: false, expiresAt };
  }

  /** What the cache holds at `at` (expired entries left out), least recently used first. */
  entries(at: number): CacheEntry[] {
    return [...this.#cache.values()].filter((entry) => entry.expiresAt > at);
  }

  /** How many answers the cache holds, expired ones not yet swept included. */
  get size(): number {
    return this.#cache.size;
  }

  flush(): void {
    this.#cache.clear();
    this.#nextExpiry = Infinity;
  }

  #touch(key: string, entry: CacheEntry): void {
    this.#cache.delete(key);
    this.#cache.set(key, entry);
  }

  #store(key: string, entry: CacheEntry, at: number): void {
    if (this.#cache.size >= this.#maxEntries) this.#sweep(at);
    for (const oldest of this.#cache.keys()) {
      if (this.#cache.size < this.#maxEntries) break;
      this.#cache.delete(oldest);
    }
    this.#cache.set(key, entry);
    this.#nextExpiry = Math.min(this.#nextExpiry, entry.expiresAt);
  }

  /** Drops expired answers; only walks the cache when one has expired since the last sweep. */
  #sweep(at: number): void {
    if (this.#nextExpiry > at) return;
    let next = Infinity;
    for (const [key, entry] of this.#cache) {
      if (entry.expiresAt <= at) this.#cache.delete(key);
      else next = Math.min(next, entry.expiresAt);
    }
    this.#nextExpiry = next;
  }
}
