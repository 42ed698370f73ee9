import type { DnsLookup } from './dns-types.js';
import { evaluateCaa, type CaaEvidence } from './caa.js';
import type { Evidence, IssuedCertificateInfo, Platform } from './model.js';
import { recordText } from './record-data.js';

export interface IssuanceInput {
  name: string;
  platform: Platform;
  /** The CA's view of DNS at the moment of the attempt. */
  lookup: DnsLookup;
  at: number;
  /** Hex serial number for the certificate (from the seeded random source). */
  serialNumber: string;
}

export type IssuanceResult =
  { ok: true; certificate: IssuedCertificateInfo } | { ok: false; reason: string; message: string; evidence: Evidence };

/** Stable reasons an issuance attempt fails with. */
export const CERTIFICATE_REASONS: Readonly<Record<string, string>> = {
  awaiting_verification: 'the domain is not verified yet',
  issuing: 'the certificate is being issued (usually a few minutes)',
  issued: 'a certificate is installed',
  validation_failed: 'the CA could not confirm the domain points at the platform',
  caa_forbids: 'CAA records do not allow the platform certificate authority to issue',
  caa_unknown_critical_tag: 'a CAA record has an unknown tag marked critical, which forbids issuance',
  caa_lookup_failed: 'the CAA lookup failed (SERVFAIL), and a CA must then refuse to issue',
  rate_limited:
    "the CA's rate limit is reached (Let's Encrypt: 5 certificates for the same names, 50 per registered domain, per week)",
  rejected_identifier: 'the CA refuses the name by policy (e.g. a reserved LDH label such as ab--)',
  timed_out: 'no certificate 30 minutes after verification',
  gave_up: 'issuance kept failing until the retry window closed',
  expired: 'the certificate expired because renewal kept failing',
};

/**
 * One attempt of the platform's CA: the domain must resolve to the platform (as an HTTP-01
 * validation would find), then CAA must allow the CA (RFC 8659), then a certificate is issued.
 */
export function attemptIssuance(input: IssuanceInput): IssuanceResult {
  const { name, platform, lookup, at } = input;
  const addresses = lookup(name, 'A');
  const pointing = addresses.answers.some(
    (record) => record.type === 'A' && platform.addresses.includes(record.data as string),
  );
  if (!pointing) {
    const dnssec = addresses.bogus ? ` (DNSSEC: ${addresses.bogus})` : '';
    const observed = addresses.answers.length > 0 ? addresses.answers.map(recordText) : [`${addresses.rcode}${dnssec}`];
    // Let's Encrypt says a failed lookup as "DNS problem: SERVFAIL looking up A for …"; a bogus zone adds the EDE text.
    const why =
      addresses.rcode === 'NOERROR' || addresses.rcode === 'NXDOMAIN'
        ? 'did not reach the platform'
        : `failed: DNS problem: ${addresses.rcode} looking up A for ${name}${dnssec}`;
    return {
      ok: false,
      reason: 'validation_failed',
      message: `the CA's ${platform.validationMethod} validation of ${name} ${why}`,
      evidence: { expected: platform.addresses.map((address) => `${name} A ${address}`), observed },
    };
  }
  const caa = evaluateCaa(lookup, {
    name,
    caIdentity: platform.caIdentity,
    accountUri: platform.caAccountUri,
    validationMethod: platform.validationMethod,
  });
  if (!caa.allowed) {
    return {
      ok: false,
      reason: caa.reason,
      message: caaMessage(caa.reason, name, platform),
      evidence: caaEvidence(caa.evidence),
    };
  }
  return {
    ok: true,
    certificate: {
      serialNumber: input.serialNumber,
      notBefore: at,
      notAfter: at + platform.certificateLifetimeMs,
      domains: [name],
    },
  };
}

function caaMessage(reason: string, name: string, platform: Platform): string {
  if (reason === 'caa_lookup_failed')
    return `the CAA lookup for ${name} failed, so ${platform.caIdentity} may not issue (RFC 8659 fails closed)`;
  if (reason === 'caa_unknown_critical_tag')
    return `a critical CAA record with an unknown tag forbids issuance for ${name}`;
  return `CAA records do not authorise ${platform.caIdentity} to issue for ${name}`;
}

/**
 * What the CA saw: the relevant CAA set, each name it asked and, when its resolver answered from
 * cache, until when; a fix made meanwhile is not seen before then, and the hint says so.
 */
function caaEvidence(evidence: CaaEvidence): Evidence {
  const cached = evidence.queries.flatMap((query) => (query.cachedUntil === undefined ? [] : [query.cachedUntil]));
  const cachedUntil = cached.length > 0 ? Math.max(...cached) : undefined;
  const cacheHint =
    cachedUntil === undefined
      ? ''
      : ` The CA read a cached answer (its resolver keeps it for the record's TTL): a CAA change made since is seen after ${new Date(cachedUntil).toISOString()}.`;
  return {
    expected: ['a CAA issue record naming the platform CA, or no CAA records up to the TLD'],
    observed: [
      ...evidence.records.map((record) => `${evidence.foundAt ?? ''} CAA ${record}`),
      ...evidence.queries.map(
        (query) =>
          `CAA ${query.name}: ${query.rcode}${query.dnssec ? ` (DNSSEC: ${query.dnssec})` : ''}${query.cachedUntil === undefined ? '' : ` (cached until ${new Date(query.cachedUntil).toISOString()})`}`,
      ),
    ],
    ...(cachedUntil === undefined ? {} : { cachedUntil }),
    hint: `${evidence.explanation}${cacheHint}`,
  };
}
