/** How a DNS provider behaves: the differences that decide whether a custom domain can work. */
export interface ProviderProfile {
  id: string;
  name: string;
  /** Offers ALIAS/ANAME records (answered as flattened A/AAAA), the way to point an apex at a host name. */
  supportsAlias: boolean;
  /** What the provider does when a CNAME would share its name with other records (RFC 1034 §3.6.2 forbids it). */
  cnameWithOtherData: 'reject' | 'tolerate';
  /** Time between saving a record and the provider's name servers answering with it. */
  publishDelayMs: number;
  /** SOA MINIMUM: how long resolvers may cache "no such name" (RFC 2308). */
  negativeTtl: number;
  /** TTL given to records saved without one. */
  defaultTtl: number;
  /** Name servers that fail CAA queries (SERVFAIL) instead of answering them, as some old ones do. */
  caaQueries: 'answered' | 'servfail';
}

/** Provider ids are slugs, as the control API document states (NewZone.provider). */
export const PROVIDER_ID = /^[a-z0-9][a-z0-9-]{0,62}$/;

/** Checks a profile read from a file; returns the first problem, or undefined. */
export function providerProblem(profile: Partial<ProviderProfile>): string | undefined {
  if (typeof profile.id !== 'string' || profile.id === '') return 'needs an id';
  if (!PROVIDER_ID.test(profile.id))
    return `${JSON.stringify(profile.id)}: an id is lower-case letters, digits and hyphens (flexdns, my-dns)`;
  if (typeof profile.supportsAlias !== 'boolean') return `${profile.id}: supportsAlias must be true or false`;
  if (profile.cnameWithOtherData !== 'reject' && profile.cnameWithOtherData !== 'tolerate')
    return `${profile.id}: cnameWithOtherData must be reject or tolerate`;
  for (const field of ['publishDelayMs', 'negativeTtl', 'defaultTtl'] as const) {
    const value = profile[field];
    if (typeof value !== 'number' || !Number.isInteger(value) || value < 0)
      return `${profile.id}: ${field} must be a non-negative integer`;
  }
  if (profile.caaQueries !== 'answered' && profile.caaQueries !== 'servfail')
    return `${profile.id}: caaQueries must be answered or servfail`;
  return undefined;
}
