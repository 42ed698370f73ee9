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
  'DS',
  'DNSKEY',
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

/** A type by its mnemonic (ALIAS is answered as flattened A/AAAA, never asked for). */
export type NamedQueryType = Exclude<RecordType, 'ALIAS'> | (typeof UNHELD_QUERY_TYPES)[number];

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

/** A, AAAA: an address; CNAME, ALIAS, NS, DNAME: a name; TXT: the text. */
export type RecordData = string | CaaData | MxData | SoaData;

export interface ResourceRecord {
  /** Normalised owner name: lower case, punycode, no trailing dot. */
  name: string;
  type: RecordType;
  /** Seconds. */
  ttl: number;
  data: RecordData;
}

export type Rcode = 'NOERROR' | 'NXDOMAIN' | 'SERVFAIL';

/** What a resolver answers for one question. */
export interface DnsAnswer {
  rcode: Rcode;
  /** Answer section, CNAME chain first (owner names in order), then the records of the asked type. */
  answers: ResourceRecord[];
  /** Authority section: the zone's SOA for NXDOMAIN and NODATA answers (RFC 2308). */
  authority: ResourceRecord[];
}

/** Asks one question of some view of DNS (authoritative, or a caching resolver at a time). */
export type DnsLookup = (name: string, type: QueryType) => DnsAnswer;
