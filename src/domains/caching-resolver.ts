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

/**
 * A recursive resolver with a TTL cache and negative caching: it keeps serving what it learned
 * until the TTL runs out, which is why a fixed record stays invisible for hours ("propagation").
 */
export class CachingResolver {
  readonly #cache = new Map<string, CacheEntry>();

  constructor(
    readonly id: string,
    private readonly world: DnsWorld,
  ) {}

  /** Answers at virtual time `at` (which must not go backwards between calls). */
  lookup(name: string, type: QueryType, at: number): ResolvedAnswer {
    const key = `${name}|${type}`;
    const cached = this.#cache.get(key);
    if (cached && cached.expiresAt > at) {
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
    if (expiresAt > at) this.#cache.set(key, { name, type, answer: fresh, storedAt: at, expiresAt });
    else this.#cache.delete(key);
    return { ...fresh, fromCache: false, expiresAt };
  }

  /** What the cache holds at `at` (expired entries left out). */
  entries(at: number): CacheEntry[] {
    return [...this.#cache.values()].filter((entry) => entry.expiresAt > at);
  }

  flush(): void {
    this.#cache.clear();
  }
}
