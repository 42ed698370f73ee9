import type { DnsAnswer, LookupOptions, QueryType, ResourceRecord, Security } from './dns-types.js';
import type { ReadonlyDnsZones } from './dns-zones.js';
import { zoneSecurity } from './dnssec.js';

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

/**
 * How long a resolution failure (SERVFAIL) is cached by default. RFC 9520 §3.2: at least 1 s, at most
 * 5 minutes; 30 s keeps a failing zone from being hammered while a healed one shows within a minute.
 */
export const DEFAULT_SERVFAIL_SECONDS = 30;
/** The floor and ceiling RFC 9520 §3.2 sets for caching a resolution failure. */
export const MIN_SERVFAIL_SECONDS = 1;
export const MAX_SERVFAIL_SECONDS = 300;

/** A resolver option out of range (a stable `code` for callers to report). */
export class ResolverOptionError extends Error {
  readonly code = 'invalid_servfail_ttl';

  constructor(message: string) {
    super(message);
    this.name = 'ResolverOptionError';
  }
}

/**
 * How long an answer may be cached: the smallest TTL; for negative answers min(SOA TTL, SOA MINIMUM)
 * (RFC 2308 §5); for a resolution failure `servfailSeconds` (RFC 9520).
 */
export function cacheSeconds(answer: DnsAnswer, servfailSeconds = DEFAULT_SERVFAIL_SECONDS): number {
  if (answer.rcode === 'SERVFAIL') return servfailSeconds;
  if (answer.answers.length > 0) return Math.min(...answer.answers.map((record) => record.ttl));
  const soa = answer.authority.find((record) => record.type === 'SOA');
  if (!soa || typeof soa.data !== 'object' || !('minimum' in soa.data)) return 0;
  return Math.min(soa.ttl, soa.data.minimum);
}

function aged(records: readonly ResourceRecord[], elapsedSeconds: number): ResourceRecord[] {
  return records.map((record) => ({ ...record, ttl: Math.max(0, record.ttl - elapsedSeconds) }));
}

/** Worst first: one bogus zone on the way makes the whole answer bogus, one insecure makes it insecure. */
const RANK: Record<Security, number> = { bogus: 0, insecure: 1, secure: 2 };
/** Zone cuts a chain of trust may climb (names have at most 127 labels). */
const MAX_ZONE_DEPTH = 127;

/** How many answers a resolver keeps by default: far more than any scenario asks, a few MB at most. */
export const DEFAULT_CACHE_ENTRIES = 10_000;

/**
 * A recursive resolver with a TTL cache and negative caching: it keeps serving what it learned
 * until the TTL runs out, which is why a fixed record stays invisible for hours ("propagation").
 * Resolution failures (SERVFAIL) are cached too, for `servfailSeconds` (RFC 9520).
 * The cache holds at most `maxEntries` answers: when full, expired answers go first, then the least
 * recently used (as real resolvers do), so a stream of distinct names cannot grow it without bound.
 */
export class CachingResolver {
  /** In use order: least recently used first. */
  readonly #cache = new Map<string, CacheEntry>();
  readonly #maxEntries: number;
  readonly #servfailSeconds: number;
  /** Whether this resolver validates DNSSEC (RFC 4035 §4): bogus answers become SERVFAIL unless CD is set. */
  readonly validating: boolean;
  /** No entry expires before this (it may be earlier than the true minimum): sweeping sooner finds nothing. */
  #nextExpiry = Infinity;

  constructor(
    readonly id: string,
    private readonly zones: ReadonlyDnsZones,
    options: { maxEntries?: number; servfailSeconds?: number; validating?: boolean } = {},
  ) {
    this.validating = options.validating ?? false;
    this.#maxEntries = Math.max(1, options.maxEntries ?? DEFAULT_CACHE_ENTRIES);
    const servfail = options.servfailSeconds ?? DEFAULT_SERVFAIL_SECONDS;
    if (!Number.isInteger(servfail) || servfail < MIN_SERVFAIL_SECONDS || servfail > MAX_SERVFAIL_SECONDS)
      throw new ResolverOptionError(
        `a resolution failure is cached for a whole number of seconds from ${MIN_SERVFAIL_SECONDS} to ${MAX_SERVFAIL_SECONDS} (RFC 9520), not ${servfail}`,
      );
    this.#servfailSeconds = servfail;
  }

  /**
   * Answers at virtual time `at` (which must not go backwards between calls). A validating resolver
   * checks the chain of trust of every zone the answer passed through, from the DS and DNSKEY sets it
   * caches like any answer (so a removed DS keeps failing for the DS's TTL): secure, insecure, or
   * bogus, which it answers as SERVFAIL unless the question set CD (RFC 4035 §3.2.2, §4.3, §5.5).
   */
  lookup(name: string, type: QueryType, at: number, options: LookupOptions = {}): ResolvedAnswer {
    const raw = this.#answer(name, type, at);
    if (!this.validating || raw.rcode === 'SERVFAIL') return raw;
    const verdict = this.#validate(name, type, raw, at);
    if (verdict.security === 'bogus' && !options.checkingDisabled)
      return {
        rcode: 'SERVFAIL',
        answers: [],
        authority: [],
        fromCache: raw.fromCache,
        expiresAt: raw.expiresAt,
        ...verdict,
      };
    return { ...raw, ...verdict };
  }

  /** The worst outcome over the zones that answered: the asked name's, and each owner's and target's on the chain. */
  #validate(name: string, type: QueryType, answer: DnsAnswer, at: number): { security: Security; bogus?: string } {
    const names = new Set([name]);
    for (const record of answer.answers) {
      names.add(record.name);
      if (record.type === 'CNAME' || record.type === 'DNAME') names.add(record.data as string);
    }
    const apexes = new Set([...names].map((owner) => this.zones.servingApex(owner)));
    // A zone's DS set is the parent's data, signed by the parent's keys (RFC 4034 §5): asking for
    // the DS of a bogus zone gets a secure answer when the parent is secure.
    if (type === 'DS' && apexes.delete(name)) apexes.add(this.zones.parentApex(name));
    let worst: { security: Security; bogus?: string } = { security: 'secure' };
    for (const apex of apexes) {
      const verdict = this.#chainOfTrust(apex, at, 0);
      if (RANK[verdict.security] < RANK[worst.security]) worst = verdict;
    }
    return worst;
  }

  /** A zone's outcome: its parent's when that is not secure (the registry's is), else its DS against its keys. */
  #chainOfTrust(apex: string | undefined, at: number, depth: number): { security: Security; bogus?: string } {
    if (apex === undefined || depth > MAX_ZONE_DEPTH) return { security: 'secure' };
    const above = this.#chainOfTrust(this.zones.parentApex(apex), at, depth + 1);
    if (above.security !== 'secure') return above;
    const ds = this.#answer(apex, 'DS', at);
    if (ds.rcode === 'SERVFAIL') return { security: 'bogus', bogus: 'DNSSEC Indeterminate' };
    const keys = this.#answer(apex, 'DNSKEY', at);
    return zoneSecurity(ds.answers, keys.rcode === 'SERVFAIL' ? [] : keys.answers);
  }

  /** The answer from cache while it lives, else from the authoritative servers (and cached). */
  #answer(name: string, type: QueryType, at: number): ResolvedAnswer {
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
    const fresh = this.zones.authoritative(name, type, at);
    const expiresAt = at + cacheSeconds(fresh, this.#servfailSeconds) * 1000;
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
