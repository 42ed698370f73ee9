/**
 * What the platform's CA refuses before it looks at DNS: its identifier policy and its rate limits,
 * as Let's Encrypt publishes them (https://letsencrypt.org/docs/rate-limits/, Boulder `policy/pa.go`).
 */
import { getDomain } from 'tldts';
import { describeSeconds, describeSpan } from '../../core/duration.js';

/** At most `count` new certificates per `periodMs`; one comes back every periodMs / count (Let's Encrypt's refill). */
export interface RateLimit {
  count: number;
  periodMs: number;
}

export interface CaPolicy {
  /** New certificates for the exact same set of names; renewals count too (Let's Encrypt: 5 per 7 days). */
  duplicateCertificates: RateLimit | null;
  /** New certificates per registered domain; renewals do not count (Let's Encrypt: 50 per 7 days). */
  certificatesPerRegisteredDomain: RateLimit | null;
  /** Refuse reserved LDH labels (`ab--`, any `??--` but `xn--`), as Boulder's policy does. */
  rejectReservedLabels: boolean;
}

const WEEK = 7 * 86_400_000;

/** Let's Encrypt's published limits and policy: the default of every world. */
export const LETS_ENCRYPT_POLICY: CaPolicy = {
  duplicateCertificates: { count: 5, periodMs: WEEK },
  certificatesPerRegisteredDomain: { count: 50, periodMs: WEEK },
  rejectReservedLabels: true,
};

export type CaRefusal =
  { reason: 'rejected_identifier'; message: string } | { reason: 'rate_limited'; message: string; retryAt: number };

/** A label with hyphens in its third and fourth positions is reserved (RFC 5890 §2.3.1); only `xn--` is in use. */
export function reservedLabelOf(name: string): string | undefined {
  return name.split('.').find((label) => label.slice(2, 4) === '--' && !label.startsWith('xn--'));
}

/** The registered domain rate limits count under (the Public Suffix List, private section included, as Boulder). */
export function registeredDomainOf(name: string): string {
  return getDomain(name, { allowPrivateDomains: true }) ?? name;
}

/** One rate limit's state for one key, as the dashboard shows it. */
export interface RateLimitUsage {
  /** `duplicate`: certificates for this exact set of names; `registered-domain`: new ones under it. */
  limit: 'duplicate' | 'registered-domain';
  /** The set of names (comma-separated) or the registered domain. */
  subject: string;
  count: number;
  periodMs: number;
  /** Certificates the CA would issue now under this limit. */
  remaining: number;
  /** When the next one comes back (one every periodMs / count). */
  nextAt: number;
}

/** A token bucket: `tokens` as of `at`. */
interface Bucket {
  tokens: number;
  at: number;
}

/** The CA's memory of what it issued, for its rate limits: one bucket per limited key. */
export class CaLedger {
  readonly #buckets = new Map<string, Bucket>();

  constructor(readonly policy: CaPolicy) {}

  /** Why the CA refuses a new certificate for `names` now, or undefined when it would issue. */
  refusal(names: readonly string[], renewal: boolean, now: number): CaRefusal | undefined {
    if (this.policy.rejectReservedLabels) {
      for (const name of names) {
        const label = reservedLabelOf(name);
        if (label !== undefined)
          return {
            reason: 'rejected_identifier',
            message: `the CA refuses ${name}: "${label}" is a reserved LDH label (hyphens in the third and fourth positions; only xn-- is allowed)`,
          };
      }
    }
    for (const { key, limit, what } of this.#limits(names, renewal)) {
      const waitMs = this.#wait(key, limit, now);
      if (waitMs > 0)
        return {
          reason: 'rate_limited',
          retryAt: now + waitMs,
          message: `the CA's limit of ${limit.count} ${what} per ${describeSeconds(limit.periodMs / 1000)} is reached; the next is possible in ${describeSpan(waitMs)}`,
        };
    }
    return undefined;
  }

  /** Counts a certificate issued for `names` now. */
  issued(names: readonly string[], renewal: boolean, now: number): void {
    for (const { key, limit } of this.#limits(names, renewal)) {
      const bucket = this.#bucket(key, limit, now);
      this.#buckets.set(key, { tokens: bucket.tokens - 1, at: now });
    }
  }

  /**
   * Every limit the CA has counted something under and not yet refilled, the most used first:
   * what the dashboard shows, so that a `rate_limited` refusal is never a surprise.
   */
  usage(now: number): RateLimitUsage[] {
    const usage: RateLimitUsage[] = [];
    for (const key of this.#buckets.keys()) {
      const [kind, subject] = [key.slice(0, key.indexOf(':')), key.slice(key.indexOf(':') + 1)];
      const limit = kind === 'set' ? this.policy.duplicateCertificates : this.policy.certificatesPerRegisteredDomain;
      if (!limit) continue;
      const { tokens } = this.#bucket(key, limit, now);
      if (tokens >= limit.count - 1e-9) continue;
      const remaining = Math.floor(tokens + 1e-9);
      const interval = limit.periodMs / limit.count;
      usage.push({
        limit: kind === 'set' ? 'duplicate' : 'registered-domain',
        subject,
        count: limit.count,
        periodMs: limit.periodMs,
        remaining,
        nextAt: now + Math.ceil((remaining + 1 - tokens) * interval),
      });
    }
    return usage.sort((a, b) => a.remaining / a.count - b.remaining / b.count || a.subject.localeCompare(b.subject));
  }

  #limits(names: readonly string[], renewal: boolean): { key: string; limit: RateLimit; what: string }[] {
    const limits: { key: string; limit: RateLimit; what: string }[] = [];
    const set = [...new Set(names)].sort().join(',');
    const { duplicateCertificates, certificatesPerRegisteredDomain } = this.policy;
    if (duplicateCertificates)
      limits.push({ key: `set:${set}`, limit: duplicateCertificates, what: `certificates for exactly ${set}` });
    if (certificatesPerRegisteredDomain && !renewal) {
      for (const domain of new Set(names.map(registeredDomainOf)))
        limits.push({
          key: `domain:${domain}`,
          limit: certificatesPerRegisteredDomain,
          what: `new certificates under ${domain}`,
        });
    }
    return limits;
  }

  #bucket(key: string, limit: RateLimit, now: number): Bucket {
    const kept = this.#buckets.get(key);
    if (!kept) return { tokens: limit.count, at: now };
    const refill = (now - kept.at) / (limit.periodMs / limit.count);
    return { tokens: Math.min(limit.count, kept.tokens + refill), at: now };
  }

  /** How long until one certificate fits under `limit` for `key` (0: now). */
  #wait(key: string, limit: RateLimit, now: number): number {
    const { tokens } = this.#bucket(key, limit, now);
    return tokens >= 1 - 1e-9 ? 0 : Math.ceil((1 - tokens) * (limit.periodMs / limit.count));
  }
}
