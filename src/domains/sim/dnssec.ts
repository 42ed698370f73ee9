import { Random } from '../../core/random.js';
import type { DnskeyData, DsData, ResourceRecord, Security } from './dns-types.js';

/**
 * A zone's DNSSEC state, as its provider (DNSKEY) and its registrar (DS at the parent) make it:
 * - `unsigned`: no keys, no DS: insecure, answered by every resolver (the default);
 * - `signed`: the provider signs, the parent holds a DS for its key: secure (AD=1);
 * - `signed-without-ds`: signed, but no DS was published at the registrar: insecure (RFC 4035 §4.3);
 * - `stale-ds`: the parent still holds a DS for a key the zone no longer has (the usual cause: moving
 *   to a provider that does not sign without removing the DS first): bogus, so validating resolvers
 *   answer SERVFAIL while non-validating ones answer (RFC 4035 §5.5).
 */
export const DNSSEC_STATES = ['unsigned', 'signed', 'signed-without-ds', 'stale-ds'] as const;
export type DnssecState = (typeof DNSSEC_STATES)[number];

/** TTL of a DS at the parent: what .com and .net publish (a stale DS outlives its removal by this long). */
export const DS_TTL = 86_400;
/** TTL of a zone's DNSKEY set. */
export const DNSKEY_TTL = 3600;
/** ECDSA P-256 with SHA-256 (RFC 8624: the algorithm to sign with); DS digest SHA-256 (RFC 4509). */
const ALGORITHM = 13;
const DIGEST_SHA256 = 2;
/** A key-signing key: Zone Key and Secure Entry Point set (RFC 4034 §2.1.1). */
const KSK_FLAGS = 257;

/** Whether the zone's name servers hold a DNSKEY set. */
export function isSigned(state: DnssecState): boolean {
  return state === 'signed' || state === 'signed-without-ds';
}

/** The apex's DNSKEY set when its provider signs it (empty otherwise). */
export function dnskeyRecords(apex: string, state: DnssecState): ResourceRecord[] {
  return isSigned(state) ? [{ name: apex, type: 'DNSKEY', ttl: DNSKEY_TTL, data: keyOf(apex, 'current') }] : [];
}

/** The DS set the parent holds for the apex: for its current key, or for a key it no longer has. */
export function dsRecords(apex: string, state: DnssecState): ResourceRecord[] {
  if (state === 'signed') return [dsRecord(apex, keyOf(apex, 'current'))];
  if (state === 'stale-ds') return [dsRecord(apex, keyOf(apex, 'previous'))];
  return [];
}

/**
 * The outcome of validating a zone from its DS set (at the parent) and its DNSKEY set, once the
 * parent is secure: no DS, insecure; a DS that matches no key (tag and algorithm), bogus with
 * "DNSKEY Missing" (RFC 8914 §4.10). Keys and digests are synthetic: kennel does not sign (no
 * RRSIG), it reproduces what a validating resolver concludes.
 */
export function zoneSecurity(
  ds: readonly ResourceRecord[],
  keys: readonly ResourceRecord[],
): { security: Security; bogus?: string } {
  const digests = ds.filter((record) => record.type === 'DS').map((record) => record.data as DsData);
  if (digests.length === 0) return { security: 'insecure' };
  const tags = keys
    .filter((record) => record.type === 'DNSKEY')
    .map((record) => record.data as DnskeyData)
    .map((key) => `${keyTag(key)}/${key.algorithm}`);
  return digests.some((digest) => tags.includes(`${digest.keyTag}/${digest.algorithm}`))
    ? { security: 'secure' }
    : { security: 'bogus', bogus: 'DNSKEY Missing' };
}

/** The key tag of a DNSKEY (RFC 4034 Appendix B) over its RDATA: flags, protocol 3, algorithm, key. */
export function keyTag(key: DnskeyData): number {
  const rdata = [key.flags >> 8, key.flags & 0xff, 3, key.algorithm, ...fromBase64(key.key)];
  let sum = 0;
  rdata.forEach((octet, index) => (sum += index % 2 === 0 ? octet << 8 : octet));
  sum += (sum >> 16) & 0xffff;
  return sum & 0xffff;
}

/** A P-256 public key's worth of octets (64), the same for the same apex and generation. */
function keyOf(apex: string, generation: 'current' | 'previous'): DnskeyData {
  return { flags: KSK_FLAGS, algorithm: ALGORITHM, key: toBase64(octets(`${generation}:${apex}`, 64)) };
}

function dsRecord(apex: string, key: DnskeyData): ResourceRecord {
  const digest = octets(`digest:${apex}:${key.key}`, 32)
    .map((octet) => octet.toString(16).padStart(2, '0'))
    .join('')
    .toUpperCase();
  const data: DsData = { keyTag: keyTag(key), algorithm: key.algorithm, digestType: DIGEST_SHA256, digest };
  return { name: apex, type: 'DS', ttl: DS_TTL, data };
}

function octets(seedText: string, length: number): number[] {
  let seed = 0x811c9dc5;
  for (const character of seedText) seed = Math.imul(seed ^ character.charCodeAt(0), 0x01000193) >>> 0;
  const random = new Random(seed);
  return Array.from({ length }, () => random.int(0, 255));
}

function toBase64(bytes: readonly number[]): string {
  return btoa(String.fromCharCode(...bytes));
}

function fromBase64(text: string): number[] {
  return [...atob(text)].map((character) => character.charCodeAt(0));
}
