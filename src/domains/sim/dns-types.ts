/** DNS data as the simulator, the verifier, the CA and the DNS server share it. */

/** Record types a zone can hold. ALIAS (also called ANAME) is a provider feature, never on the wire. */
export const RECORD_TYPES = ['A', 'AAAA', 'CNAME', 'ALIAS', 'CAA', 'TXT', 'MX', 'NS', 'DNAME', 'SOA'] as const;
export type RecordType = (typeof RECORD_TYPES)[number];

/**
 * Types real clients ask that no zone here holds: browsers send HTTPS with every A/AAAA, validating
 * resolvers DS and DNSKEY. A server answers them like any type it has no record of: NODATA, or
 * NXDOMAIN for a name that does not exist, following CNAMEs on the way (RFC 1034 §4.3.2).
 */
export const UNHELD_QUERY_TYPES = [
  'HTTPS',
  'SVCB',
  'PTR',
  'SRV',
  'TLSA',
  'NAPTR',
  'SSHFP',
  'HINFO',
  'RRSIG',
  'NSEC',
  'NSEC3',
  'CDS',
  'CDNSKEY',
] as const;

/**
 * DNSSEC records a zone's DNSSEC state answers (dnssec.ts), never saved by users: DNSKEY at a signed
 * zone's apex, DS for it at its parent (RFC 4034 §2, §5).
 */
export const DNSSEC_TYPES = ['DS', 'DNSKEY'] as const;
export type DnssecType = (typeof DNSSEC_TYPES)[number];

/** Types that can appear in an answer: what zones hold and what their DNSSEC state answers. */
export type AnswerType = RecordType | DnssecType;

/** A type by its mnemonic (ALIAS is answered as flattened A/AAAA, never asked for). */
export type NamedQueryType = Exclude<RecordType, 'ALIAS'> | DnssecType | (typeof UNHELD_QUERY_TYPES)[number];

/** Types that can be queried over DNS: a named one, or any other data type as RFC 3597 writes it (`TYPE65280`). */
export type QueryType = NamedQueryType | `TYPE${number}`;

export interface CaaData {
  /** 0, or 128 for "issuer critical". */
  flags: number;
  /** `issue`, `issuewild`, `iodef` or anything else (case as written). */
  tag: string;
  /** e.g. `letsencrypt.org; accounturi=https://…` or `;`. */
  value: string;
}

export interface MxData {
  preference: number;
  exchange: string;
}

export interface SoaData {
  mname: string;
  rname: string;
  serial: number;
  refresh: number;
  retry: number;
  expire: number;
  /** Negative-caching TTL bound (RFC 2308). */
  minimum: number;
}

/** A DNSKEY (RFC 4034 §2.1): 257 for a key-signing key; the key in base64. */
export interface DnskeyData {
  flags: number;
  algorithm: number;
  key: string;
}

/** A DS (RFC 4034 §5.1): which key of the child zone it vouches for, and its digest in hex. */
export interface DsData {
  keyTag: number;
  algorithm: number;
  digestType: number;
  digest: string;
}

/** A, AAAA: an address; CNAME, ALIAS, NS, DNAME: a name; TXT: the text. */
export type RecordData = string | CaaData | MxData | SoaData | DnskeyData | DsData;

export interface ResourceRecord {
  /** Normalised owner name: lower case, punycode, no trailing dot. */
  name: string;
  type: AnswerType;
  /** Seconds. */
  ttl: number;
  data: RecordData;
}

/** YXDOMAIN: a DNAME substitution would make a name longer than 255 octets (RFC 6672 §2.2). */
export type Rcode = 'NOERROR' | 'NXDOMAIN' | 'SERVFAIL' | 'YXDOMAIN';

/** What a resolver answers for one question. */
export interface DnsAnswer {
  rcode: Rcode;
  /** Answer section, CNAME chain first (owner names in order), then the records of the asked type. */
  answers: ResourceRecord[];
  /** Authority section: the zone's SOA for NXDOMAIN and NODATA answers (RFC 2308). */
  authority: ResourceRecord[];
  /**
   * What a validating resolver concluded (RFC 4035 §4.3): `secure` (AD=1), `insecure` (no chain
   * of trust: answered, AD=0) or `bogus` (SERVFAIL, unless the query set CD). Absent: not validated.
   */
  security?: Security;
  /** Why an answer is bogus, as an Extended DNS Error says it (RFC 8914), e.g. `DNSKEY Missing`. */
  bogus?: string;
}

/** DNSSEC validation outcomes (RFC 4035 §4.3; "indeterminate" is not simulated). */
export type Security = 'secure' | 'insecure' | 'bogus';

/** How a question is asked: CD=1 asks a validating resolver not to check (RFC 4035 §3.2.2). */
export interface LookupOptions {
  checkingDisabled?: boolean;
}

/** Asks one question of some view of DNS (authoritative, or a caching resolver at a time). */
export type DnsLookup = (name: string, type: QueryType, options?: LookupOptions) => DnsAnswer;
