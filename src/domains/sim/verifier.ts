import type { DnsAnswer, QueryType, ResourceRecord } from './dns-types.js';
import type { ReadonlyDnsZones } from './dns-zones.js';
import type { ResolvedAnswer } from './caching-resolver.js';
import type { DnsStatus, Evidence, Platform } from './model.js';
import { describeSeconds } from '../../core/duration.js';
import { apexOf } from './names.js';
import { dataText } from './record-data.js';

export interface VerifyInput {
  name: string;
  apex: boolean;
  /** The project's host: the CNAME target. */
  expectedHost: string;
  platform: Platform;
  /** The platform's resolver, at the moment of verification. */
  resolve: (name: string, type: QueryType) => ResolvedAnswer;
  /** The providers' saved records, to tell "not yet visible" from "not there". */
  zones: ReadonlyDnsZones;
  now: number;
}

/** Stable reason codes of verification, with what each means (docs and the control API list them). */
export const DNS_REASONS: Readonly<Record<string, string>> = {
  verified: 'DNS points the domain at the platform',
  dns_lookup_failed: 'the DNS lookup failed (SERVFAIL); try again later',
  dns_propagating: 'the right record is saved but resolvers do not see it yet (publish delay or a cached old answer)',
  cname_missing: 'no CNAME record exists for the subdomain',
  cname_mismatch: 'the CNAME points somewhere other than the value shown',
  cname_loop: 'the CNAME chain loops back on itself',
  conflicting_a_record: 'an A record at the same name blocks the CNAME or points elsewhere',
  conflicting_aaaa_record: 'an AAAA record at the same name points elsewhere',
  doubled_zone_suffix: 'the record was created at a name with the zone appended twice',
  apex_alias_unsupported: "the apex needs ALIAS/ANAME, which the domain's DNS provider does not offer",
  alias_missing: 'no ALIAS/ANAME (or A record to the platform) exists at the apex',
};

const line = (record: ResourceRecord): string =>
  `${record.name} ${record.ttl} ${record.type} ${dataText(record.type, record.data)}`;

function status(
  state: DnsStatus['state'],
  reason: string,
  message: string,
  evidence: Evidence,
  now: number,
): DnsStatus {
  return { state, reason, message, evidence, checkedAt: now };
}

/** Records saved at the provider for `name`/`type` that resolvers cannot see yet, and when they will. */
function notYetSeen(
  input: VerifyInput,
  name: string,
  type: string,
  answer: ResolvedAnswer,
): { pending: string[]; retryAt: number } | undefined {
  const zone = input.zones.zoneFor(name);
  if (!zone) return undefined;
  const saved = input.zones.saved(zone).filter((record) => record.name === name && record.type === type);
  if (saved.length === 0) return undefined;
  const published = Math.min(...saved.map((record) => record.visibleAt));
  if (published <= input.now && !answer.fromCache) return undefined;
  // The answer just looked up is cached too: the resolver repeats it until it expires.
  return { pending: saved.map(line), retryAt: Math.max(published, answer.expiresAt) };
}

function pendingStatus(
  input: VerifyInput,
  found: { pending: string[]; retryAt: number },
  expected: string[],
  observed: string[],
): DnsStatus {
  const wait = Math.max(0, Math.ceil((found.retryAt - input.now) / 1000));
  return status(
    'pending',
    'dns_propagating',
    `the record is saved but not visible yet (DNS changes can take up to 48 hours); the platform's resolver should see it in ${describeSeconds(wait)}`,
    { expected, observed, pending: found.pending, retryAt: found.retryAt },
    input.now,
  );
}

function lookupFailed(input: VerifyInput, expected: string[], name: string, answer: DnsAnswer): DnsStatus {
  // A bogus answer (RFC 4035 §5.5) is the zone owner's to fix at the registrar, not a provider outage.
  if (answer.rcode === 'YXDOMAIN')
    return status(
      'pending',
      'dns_lookup_failed',
      `looking up ${name} failed (YXDOMAIN): a DNAME above it rewrites it to a name longer than 255 octets (RFC 6672 §2.2)`,
      { expected, observed: ['YXDOMAIN'], retryAt: input.now + 5 * 60_000 },
      input.now,
    );
  const why =
    answer.bogus === 'DNSKEY Missing'
      ? 'DNSSEC validation failed (DNSKEY Missing): the parent zone publishes a DS record that matches no key of the zone; remove the DS at the registrar or sign the zone with that key'
      : answer.bogus
        ? `DNSSEC validation failed (${answer.bogus})`
        : 'the DNS provider may be having trouble';
  const observed = answer.bogus ? [`SERVFAIL (DNSSEC: ${answer.bogus})`] : ['SERVFAIL'];
  return status(
    'pending',
    'dns_lookup_failed',
    `looking up ${name} failed (SERVFAIL); ${why}`,
    { expected, observed, retryAt: input.now + 5 * 60_000 },
    input.now,
  );
}

/**
 * What the resolver answered, one line per record. From a cache, TTLs have counted down (1500 of a
 * 3600 record): the line says so, so that the number is not read as a TTL mismatch.
 */
function observedOf(answer: ResolvedAnswer): string[] {
  const cached = answer.fromCache ? ' (from the resolver cache: TTL left, not the TTL set)' : '';
  return answer.answers.length > 0
    ? answer.answers.map((record) => `${line(record)}${cached}`)
    : [`${answer.rcode === 'NXDOMAIN' ? 'NXDOMAIN (no such name)' : 'no records of this type'}${cached}`];
}

/** The platform's own addresses answered for `name` without a CNAME: the provider flattens (or an ALIAS is used). */
function flattened(input: VerifyInput): ResolvedAnswer | undefined {
  const answer = input.resolve(input.name, 'A');
  const own = answer.answers.filter((record) => record.type === 'A' && record.name === input.name);
  return own.length > 0 && own.every((record) => input.platform.addresses.includes(record.data as string))
    ? answer
    : undefined;
}

/** Follows a CNAME chain through the resolver; true when it comes back to a name already seen. */
function loops(input: VerifyInput, start: string): boolean {
  const seen = new Set<string>();
  let current: string | undefined = start;
  while (current !== undefined && seen.size < 10) {
    if (seen.has(current)) return true;
    seen.add(current);
    const next: ResourceRecord | undefined = input
      .resolve(current, 'CNAME')
      .answers.find((record) => record.type === 'CNAME' && record.name === current);
    current = next ? (next.data as string) : undefined;
  }
  return false;
}

/** Direct A/AAAA records at the name that are not the platform's. */
function conflicting(input: VerifyInput, type: 'A' | 'AAAA'): ResolvedAnswer | undefined {
  const answer = input.resolve(input.name, type);
  const own = answer.answers.filter((record) => record.type === type && record.name === input.name);
  const platform = type === 'A' ? input.platform.addresses : input.platform.addressesV6;
  return own.some((record) => !platform.includes(record.data as string)) ? answer : undefined;
}

/** Records saved at the provider for `name` (published or not). */
function savedAt(input: VerifyInput, name: string): ResourceRecord[] {
  const zone = input.zones.zoneFor(name);
  return zone ? input.zones.saved(zone).filter((record) => record.name === name) : [];
}

/** True when what is saved at the provider would verify: only the answer a resolver cached is stale. */
function savedWouldVerify(input: VerifyInput): boolean {
  const saved = savedAt(input, input.name);
  const foreign = (type: 'A' | 'AAAA', platform: string[]) =>
    saved.some((record) => record.type === type && !platform.includes(record.data as string));
  if (foreign('A', input.platform.addresses) || foreign('AAAA', input.platform.addressesV6)) return false;
  if (!input.apex) return saved.some((record) => record.type === 'CNAME' && record.data === input.expectedHost);
  return saved.some(
    (record) =>
      (record.type === 'ALIAS' && record.data === input.expectedHost) ||
      (record.type === 'A' && input.platform.addresses.includes(record.data as string)),
  );
}

/** A wrong answer served from cache while the provider already holds the right records: propagation, not misconfiguration. */
function staleCache(input: VerifyInput, answers: readonly ResolvedAnswer[], expected: string[]): DnsStatus | undefined {
  const cached = answers.filter((answer) => answer.fromCache);
  if (cached.length === 0 || !savedWouldVerify(input)) return undefined;
  const retryAt = Math.max(...cached.map((answer) => answer.expiresAt));
  const found = { pending: savedAt(input, input.name).map(line), retryAt };
  return pendingStatus(input, found, expected, answers.flatMap(observedOf));
}

function verifySubdomain(input: VerifyInput): DnsStatus {
  const { name, expectedHost, now } = input;
  const expected = [`${name} ${input.platform.recordTtl} CNAME ${expectedHost}`];
  const answer = input.resolve(name, 'CNAME');
  if (answer.rcode === 'SERVFAIL' || answer.rcode === 'YXDOMAIN') return lookupFailed(input, expected, name, answer);
  const cname = answer.answers.find((record) => record.type === 'CNAME' && record.name === name);
  for (const type of ['A', 'AAAA'] as const) {
    const blocking = conflicting(input, type);
    if (blocking) {
      const stale = staleCache(input, [blocking], expected);
      if (stale) return stale;
      const reason = type === 'A' ? 'conflicting_a_record' : 'conflicting_aaaa_record';
      return status(
        'invalid',
        reason,
        `a ${type} record at ${name} conflicts with the CNAME: remove it`,
        {
          expected,
          observed: observedOf(blocking),
          hint: `delete the ${type} record(s) of ${name}, then Verify again`,
        },
        now,
      );
    }
  }
  if (cname) {
    const value = cname.data as string;
    if (value === expectedHost)
      return status(
        'verified',
        'verified',
        `${name} points at ${expectedHost}`,
        { expected, observed: observedOf(answer) },
        now,
      );
    const stale = staleCache(input, [answer], expected);
    if (stale) return stale;
    if (loops(input, value))
      return status(
        'invalid',
        'cname_loop',
        `the CNAME chain from ${name} loops`,
        { expected, observed: observedOf(answer) },
        now,
      );
    const doubled = value.startsWith(`${expectedHost}.`);
    return status(
      'invalid',
      'cname_mismatch',
      `the CNAME of ${name} points at ${value}, not ${expectedHost}`,
      {
        expected,
        observed: observedOf(answer),
        hint: doubled
          ? `the provider appended the zone to the value: enter ${expectedHost}. with a trailing dot`
          : `change the CNAME value to ${expectedHost}`,
      },
      now,
    );
  }
  const waiting = notYetSeen(input, name, 'CNAME', answer);
  if (waiting) return pendingStatus(input, waiting, expected, observedOf(answer));
  const doubledName = `${name}.${apexOf(name)}`;
  const zone = input.zones.zoneFor(doubledName);
  const doubledRecords = zone ? input.zones.saved(zone).filter((record) => record.name === doubledName) : [];
  if (doubledRecords.length > 0) {
    return status(
      'invalid',
      'doubled_zone_suffix',
      `the record was created at ${doubledName}: the provider appended the zone to a full name`,
      {
        expected,
        observed: doubledRecords.map(line),
        hint: `enter only the label (${name.slice(0, -(apexOf(name).length + 1))}) as the record name`,
      },
      now,
    );
  }
  const flat = flattened(input);
  if (flat)
    return status(
      'invalid',
      'cname_missing',
      `no CNAME is visible for ${name}: it answers with the platform's addresses directly, so the DNS provider flattens the CNAME (or an ALIAS/ANAME is used); the platform needs the CNAME itself`,
      {
        expected,
        observed: observedOf(flat),
        hint: `turn CNAME flattening off for ${name} (or replace the ALIAS/ANAME with a CNAME), then Verify again`,
      },
      now,
    );
  return status(
    'invalid',
    'cname_missing',
    `no CNAME record exists for ${name}`,
    { expected, observed: observedOf(answer) },
    now,
  );
}

function verifyApex(input: VerifyInput): DnsStatus {
  const { name, expectedHost, platform, now } = input;
  const expected = [
    `${name} ${platform.recordTtl} ALIAS ${expectedHost}`,
    `(or ANAME; flattened to A ${platform.addresses.join(', ')})`,
  ];
  const answer = input.resolve(name, 'A');
  if (answer.rcode === 'SERVFAIL' || answer.rcode === 'YXDOMAIN') return lookupFailed(input, expected, name, answer);
  const addresses = answer.answers.filter((record) => record.type === 'A').map((record) => record.data as string);
  if (addresses.length > 0) {
    const foreign = addresses.filter((address) => !platform.addresses.includes(address));
    if (foreign.length === 0) {
      const v6 = conflicting(input, 'AAAA');
      if (v6)
        return status(
          'invalid',
          'conflicting_aaaa_record',
          `an AAAA record at ${name} points elsewhere: remove it`,
          { expected, observed: observedOf(v6) },
          now,
        );
      return status(
        'verified',
        'verified',
        `${name} resolves to the platform`,
        { expected, observed: observedOf(answer) },
        now,
      );
    }
    const waiting = notYetSeen(input, name, 'ALIAS', answer);
    if (waiting && foreign.length === addresses.length)
      return pendingStatus(input, waiting, expected, observedOf(answer));
    const stale = staleCache(input, [answer], expected);
    if (stale) return stale;
    return status(
      'invalid',
      'conflicting_a_record',
      `${name} resolves to ${foreign.join(', ')}, which is not the platform`,
      { expected, observed: observedOf(answer), hint: 'remove the A records that point elsewhere' },
      now,
    );
  }
  const waiting = notYetSeen(input, name, 'ALIAS', answer) ?? notYetSeen(input, name, 'A', answer);
  if (waiting) return pendingStatus(input, waiting, expected, observedOf(answer));
  const provider = input.zones.zoneFor(name)?.provider;
  if (provider && !provider.supportsAlias) {
    return status(
      'invalid',
      'apex_alias_unsupported',
      `${provider.name} does not offer ALIAS/ANAME records, which an apex domain needs`,
      {
        expected,
        observed: observedOf(answer),
        hint: `move the domain's DNS to a provider with ALIAS/ANAME, or add A records for ${platform.addresses.join(', ')}, or use a subdomain such as www.${name}`,
      },
      now,
    );
  }
  return status(
    'invalid',
    'alias_missing',
    `no ALIAS/ANAME record at ${name}`,
    { expected, observed: observedOf(answer) },
    now,
  );
}

/**
 * Verify: ordered checks with one stable reason each (like github/pages-health-check), answered
 * from what the platform's resolver sees now, with evidence of what was expected and observed.
 */
export function verifyDns(input: VerifyInput): DnsStatus {
  return input.apex ? verifyApex(input) : verifySubdomain(input);
}
