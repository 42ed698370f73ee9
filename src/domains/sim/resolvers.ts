import { CachingResolver, type ResolvedAnswer } from './caching-resolver.js';
import type { LookupOptions, QueryType } from './dns-types.js';
import type { ReadonlyDnsZones } from './dns-zones.js';
import { QueryLog } from './history.js';

/** The resolver the platform's verifier uses (`--platform-dns-port`). */
export const PLATFORM_RESOLVER = 'platform';
/** The resolver `dig` steps and the live DNS server ask by default: a public one (8.8.8.8, 1.1.1.1). */
export const PUBLIC_RESOLVER = 'public';
/** The CA's own resolver, with its own cache: Let's Encrypt runs its own validating Unbound. */
export const CA_RESOLVER = 'ca';
/** A resolver that does not validate DNSSEC (many ISP and office resolvers): it answers bogus zones. */
export const NON_VALIDATING_RESOLVER = 'non-validating';

/**
 * Every resolver of the world and whether it validates DNSSEC (RFC 4035 §4). Public resolvers and
 * Let's Encrypt's validate; the platform's verifier is taken to use a validating one as well.
 */
export const RESOLVERS = [
  { id: PUBLIC_RESOLVER, validating: true },
  { id: PLATFORM_RESOLVER, validating: true },
  { id: CA_RESOLVER, validating: true },
  { id: NON_VALIDATING_RESOLVER, validating: false },
] as const;

/** What readers of the query log see. */
export type ReadonlyQueryLog = Pick<QueryLog, 'list' | 'size' | 'capacity'>;

/**
 * The world's caching resolvers, each with its own cache over the same zones, and the log of every
 * question they answered (bounded, apart from the history).
 */
export class Resolvers {
  readonly #resolvers: ReadonlyMap<string, CachingResolver>;
  readonly #queryLog = new QueryLog();

  constructor(zones: ReadonlyDnsZones) {
    this.#resolvers = new Map(
      RESOLVERS.map(({ id, validating }) => [id, new CachingResolver(id, zones, { validating })]),
    );
  }

  ids(): string[] {
    return [...this.#resolvers.keys()];
  }

  has(id: string): boolean {
    return this.#resolvers.has(id);
  }

  get queryLog(): ReadonlyQueryLog {
    return this.#queryLog;
  }

  /** Asks resolver `id` (one of `ids()`) at `at`, and logs the question. */
  lookup(id: string, name: string, type: QueryType, at: number, options: LookupOptions = {}): ResolvedAnswer {
    const answer = this.#resolvers.get(id)!.lookup(name, type, at, options);
    const { rcode, fromCache } = answer;
    this.#queryLog.add({ at, resolver: id, name, type, rcode, fromCache, answers: answer.answers.length });
    return answer;
  }

  /** Empties every cache; says how many answers each held at `at`. */
  flush(at: number): { resolver: string; entries: number }[] {
    return [...this.#resolvers.values()].map((resolver) => {
      const entries = resolver.entries(at).length;
      resolver.flush();
      return { resolver: resolver.id, entries };
    });
  }
}
