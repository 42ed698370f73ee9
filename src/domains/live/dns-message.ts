// Encodes kennel's DNS responses (RFC 1035 §4.1) with dns-packet: the question echoed as it was
// sent, records uncompressed, an OPT record when the query had one (RFC 6891), and TC=1 when the
// records do not fit. dns-packet does not check what it writes (a 64-octet label, a 256-octet TXT
// string or a bad address come out as a corrupt message), so every record is checked here first.
// Pure, and linear in the answer: its size is known before a message is built, and no message
// over `limit` is.
import dnsPacket, {
  type Answer,
  type CaaData as WireCaa,
  type DnskeyData as WireDnskey,
  type DsData as WireDs,
  type OptAnswer,
  type Packet,
  type SoaData as WireSoa,
} from 'dns-packet';
import type { CaaData, DnskeyData, DsData, MxData, NamedQueryType, ResourceRecord, SoaData } from '../sim/dns-types.js';
import { HEADER_OCTETS, type Query } from './dns-wire.js';

/** A record the lookup returned that cannot go on the wire (bad address, ALIAS, wrong data shape). */
export class DnsEncodeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DnsEncodeError';
  }
}

/** What a response says besides the echoed question. */
export interface ResponseContent {
  /** Up to 12 bits: the high 8 travel in the OPT record (RFC 6891 §6.1.3). */
  rcode: number;
  /** AA: set by an authoritative server for answers from its own zones (RFC 1035 §4.1.1). */
  authoritative: boolean;
  /** RA: set by a server that offers recursion (a resolver); absent means false. */
  recursionAvailable?: boolean;
  /** AD: a validating resolver found every RRset of the answer secure (RFC 4035 §3.2.3). */
  authenticData?: boolean;
  /** An Extended DNS Error for the OPT record (RFC 8914), e.g. 9 "DNSKEY Missing" for a bogus zone. */
  extendedError?: { code: number; text: string };
  answers: readonly ResourceRecord[];
  authority: readonly ResourceRecord[];
}

/** Our advertised EDNS UDP payload size (the DNS flag day 2020 value). */
export const EDNS_PAYLOAD = 1232;
/**
 * Type codes of the records kennel serves (RFC 1035 §3.2.2, RFC 3596, RFC 8659) and of the types it
 * answers with NODATA (IANA DNS parameters: RFC 9460, RFC 4034, RFC 6672, RFC 2782, RFC 6698, …).
 */
export const TYPE_CODES: Record<NamedQueryType, number> = {
  A: 1,
  NS: 2,
  CNAME: 5,
  SOA: 6,
  PTR: 12,
  HINFO: 13,
  MX: 15,
  TXT: 16,
  AAAA: 28,
  SRV: 33,
  NAPTR: 35,
  DNAME: 39,
  DS: 43,
  SSHFP: 44,
  RRSIG: 46,
  NSEC: 47,
  DNSKEY: 48,
  NSEC3: 50,
  TLSA: 52,
  CDS: 59,
  CDNSKEY: 60,
  SVCB: 64,
  HTTPS: 65,
  CAA: 257,
};

const MAX_LABEL_OCTETS = 63;
const MAX_NAME_OCTETS = 255;
/** What dns-packet would read differently from the labels checked here: its name encoder trims dots
 * with a multi-line regular expression and reads `\.` in an SOA RNAME as a dot inside a label. */
const MISREAD_IN_NAMES = /[\n\r\u2028\u2029\\]/;
/** Question names kennel repeats as the owner of the records it answers with (host names, `_` labels). */
const PLAIN_NAME = /^[A-Za-z0-9_-]+(?:\.[A-Za-z0-9_-]+)*$/;

/**
 * The response to `query` in at most `limit` octets. When the records do not fit: with `truncate`,
 * the header (TC=1), question and OPT only (RFC 6891 §7), which a question always fits in 512 octets;
 * without, a DnsEncodeError. A record that cannot be encoded throws DnsEncodeError either way.
 */
export function encodeResponse(query: Query, content: ResponseContent, limit: number, truncate: boolean): Buffer {
  const owner = ownerSpelling(query);
  const wire = (record: ResourceRecord): Answer => wireRecord(record, owner);
  const full = packet(query, content, false, content.answers.map(wire), content.authority.map(wire));
  if (HEADER_OCTETS + query.question.length + sectionsLength(full) <= limit) return withQuestion(full, query);
  if (!truncate) throw new DnsEncodeError(`the answer needs more than ${limit} octets`);
  return withQuestion(packet(query, content, true, [], []), query);
}

function packet(query: Query, content: ResponseContent, tc: boolean, answers: Answer[], authorities: Answer[]): Packet {
  const flags =
    (content.authoritative ? dnsPacket.AUTHORITATIVE_ANSWER : 0) |
    (tc ? dnsPacket.TRUNCATED_RESPONSE : 0) |
    (query.rd ? dnsPacket.RECURSION_DESIRED : 0) |
    (content.recursionAvailable ? dnsPacket.RECURSION_AVAILABLE : 0) |
    (content.authenticData ? dnsPacket.AUTHENTIC_DATA : 0) |
    (query.cd ? dnsPacket.CHECKING_DISABLED : 0) |
    (content.rcode & 0x0f);
  const additionals: Answer[] = query.edns ? [opt(content.rcode, query.edns.dnssecOk, content.extendedError)] : [];
  return { type: 'response', id: query.id, flags, questions: [], answers, authorities, additionals };
}

/** EDNS option code of an Extended DNS Error (RFC 8914 §2). */
const EDE_OPTION = 15;

/**
 * Our OPT record: our payload size, version 0, the high bits of the RCODE, DO as the query had it
 * and the Extended DNS Error, if any (INFO-CODE, then its text in UTF-8).
 */
function opt(rcode: number, dnssecOk: boolean, extendedError?: { code: number; text: string }): OptAnswer {
  const flags = dnssecOk ? dnsPacket.DNSSEC_OK : 0;
  const extendedRcode = (rcode >> 4) & 0xff;
  return {
    type: 'OPT',
    name: '.',
    udpPayloadSize: EDNS_PAYLOAD,
    extendedRcode,
    ednsVersion: 0,
    flags,
    flag_do: dnssecOk,
    // dns-packet writes any option given as {code, data}; its types name only the ones it decodes.
    options: extendedError
      ? [{ code: EDE_OPTION, data: edeData(extendedError) } as unknown as OptAnswer['options'][number]]
      : [],
  };
}

function edeData({ code, text }: { code: number; text: string }): Buffer {
  const data = Buffer.alloc(2 + Buffer.byteLength(text, 'utf8'));
  data.writeUInt16BE(code, 0);
  data.write(text, 2, 'utf8');
  return data;
}

/** Octets of everything after the header (the question aside), counted without writing any. */
function sectionsLength(packet: Packet): number {
  return dnsPacket.encodingLength(packet) - HEADER_OCTETS;
}

/** The message with the question as the query sent it (dns-packet would re-read its octets as UTF-8). */
function withQuestion(packet: Packet, query: Query): Buffer {
  const encoded = dnsPacket.encode(packet);
  const message = Buffer.concat([encoded.subarray(0, HEADER_OCTETS), query.question, encoded.subarray(HEADER_OCTETS)]);
  message.writeUInt16BE(1, 4);
  return message;
}

/** Records owned by the asked name carry it as asked (mixed case included), as servers that compress names do. */
function ownerSpelling(query: Query): (name: string) => string {
  const asked = query.labels.join('.');
  if (!PLAIN_NAME.test(asked)) return (name) => name;
  const key = asked.toLowerCase();
  const same = (name: string): boolean =>
    (name.length === key.length || (name.length === key.length + 1 && name.endsWith('.'))) &&
    name.slice(0, key.length).toLowerCase() === key;
  return (name) => (same(name) ? asked : name);
}

/** One resource record of class IN, checked, as dns-packet takes it. */
function wireRecord(record: ResourceRecord, owner: (name: string) => string): Answer {
  if (record.type === 'ALIAS')
    throw new DnsEncodeError(`ALIAS record for ${record.name} cannot go on the wire; flatten it to A/AAAA`);
  const name = wireName(owner(record.name));
  const ttl = Number.isFinite(record.ttl) ? Math.min(Math.max(Math.floor(record.ttl), 0), 0x7fffffff) : 0;
  const head = { name, ttl, class: 'IN' as const };
  switch (record.type) {
    case 'A':
    case 'AAAA':
      return { ...head, type: record.type, data: address(record) };
    case 'CNAME':
    case 'NS':
    case 'DNAME':
      return { ...head, type: record.type, data: wireName(text(record)) };
    case 'TXT':
      return { ...head, type: 'TXT', data: txtData(record) };
    case 'MX': {
      const mx = structured<MxData>(record);
      const preference = integer(record, 'preference', mx.preference, 0xffff);
      return { ...head, type: 'MX', data: { preference, exchange: wireName(mx.exchange) } };
    }
    case 'CAA':
      return { ...head, type: 'CAA', data: caaData(record) };
    case 'SOA':
      return { ...head, type: 'SOA', data: soaData(record) };
    case 'DNSKEY':
      return { ...head, type: 'DNSKEY', data: dnskeyData(record) };
    case 'DS':
      return { ...head, type: 'DS', data: dsData(record) };
    default:
      throw new DnsEncodeError(`${record.type} record for ${record.name} cannot be encoded`);
  }
}

/** A name checked against RFC 1035 §2.3.4 (labels of 1 to 63 octets, 255 in all), as dns-packet takes it. */
function wireName(text: string): string {
  if (MISREAD_IN_NAMES.test(text)) throw new DnsEncodeError(`name ${JSON.stringify(text)} cannot be encoded`);
  const trimmed = text.endsWith('.') ? text.slice(0, -1) : text;
  if (trimmed === '') return '.';
  if (Buffer.byteLength(trimmed, 'utf8') + 2 > MAX_NAME_OCTETS)
    throw new DnsEncodeError(`name "${text}" is longer than ${MAX_NAME_OCTETS} octets`);
  for (const label of trimmed.split('.')) {
    const octets = Buffer.byteLength(label, 'utf8');
    if (octets === 0 || octets > MAX_LABEL_OCTETS)
      throw new DnsEncodeError(`name "${text}" has an empty label or one longer than ${MAX_LABEL_OCTETS} octets`);
  }
  return text;
}

function soaData(record: ResourceRecord): WireSoa {
  const soa = structured<SoaData>(record);
  const number = (field: 'serial' | 'refresh' | 'retry' | 'expire' | 'minimum'): number =>
    integer(record, field, soa[field], 0xffffffff);
  return {
    mname: wireName(soa.mname),
    rname: wireName(soa.rname),
    serial: number('serial'),
    refresh: number('refresh'),
    retry: number('retry'),
    expire: number('expire'),
    minimum: number('minimum'),
  };
}

function dnskeyData(record: ResourceRecord): WireDnskey {
  const key = structured<DnskeyData>(record);
  if (typeof key.key !== 'string' || !/^[A-Za-z0-9+/]+={0,2}$/.test(key.key))
    throw new DnsEncodeError(`DNSKEY record for ${record.name} needs a base64 key`);
  return {
    flags: integer(record, 'flags', key.flags, 0xffff),
    algorithm: integer(record, 'algorithm', key.algorithm, 0xff),
    key: Buffer.from(key.key, 'base64'),
  };
}

function dsData(record: ResourceRecord): WireDs {
  const ds = structured<DsData>(record);
  if (typeof ds.digest !== 'string' || !/^([0-9A-Fa-f]{2})+$/.test(ds.digest))
    throw new DnsEncodeError(`DS record for ${record.name} needs a hex digest`);
  return {
    keyTag: integer(record, 'keyTag', ds.keyTag, 0xffff),
    algorithm: integer(record, 'algorithm', ds.algorithm, 0xff),
    digestType: integer(record, 'digestType', ds.digestType, 0xff),
    digest: Buffer.from(ds.digest, 'hex'),
  };
}

function address(record: ResourceRecord): string {
  const value = text(record);
  const bytes = record.type === 'A' ? ipv4Bytes(value) : ipv6Bytes(value);
  // dns-packet's address codec writes whatever it is given; only addresses read here reach it.
  if (!bytes) throw new DnsEncodeError(`${record.type} record for ${record.name} has an invalid address "${value}"`);
  return value;
}

/** TXT RDATA: the text as character-strings of at most 255 octets (RFC 1035 §3.3.14). */
function txtData(record: ResourceRecord): string[] {
  const strings = txtStrings(text(record));
  if (strings.reduce((octets, part) => octets + 1 + Buffer.byteLength(part, 'utf8'), 0) > 0xffff)
    throw new DnsEncodeError(`TXT record for ${record.name} is longer than 65535 octets`);
  return strings;
}

/** TXT text as character-strings of at most 255 octets, split between characters. */
export function txtStrings(value: string): string[] {
  const octets = Buffer.byteLength(value, 'utf8');
  if (octets <= 255) return [value];
  if (octets === value.length)
    return Array.from({ length: Math.ceil(octets / 255) }, (_, i) => value.slice(i * 255, i * 255 + 255));
  return splitCharacters(value);
}

function splitCharacters(value: string): string[] {
  const strings: string[] = [];
  let current = '';
  let octets = 0;
  for (const character of value) {
    const size = Buffer.byteLength(character, 'utf8');
    if (octets + size > 255) {
      strings.push(current);
      current = '';
      octets = 0;
    }
    current += character;
    octets += size;
  }
  strings.push(current);
  return strings;
}

function caaData(record: ResourceRecord): WireCaa {
  const { flags, tag, value } = structured<CaaData>(record);
  // RFC 8659 §4.1 wants an alphanumeric tag; printable ASCII is what kennel has always accepted.
  if (typeof tag !== 'string' || !/^[\x21-\x7e]{1,255}$/.test(tag))
    throw new DnsEncodeError(`CAA record for ${record.name} has an unencodable tag "${tag}"`);
  if (typeof value !== 'string') throw new DnsEncodeError(`CAA record for ${record.name} needs a text value`);
  if (2 + tag.length + Buffer.byteLength(value, 'utf8') > 0xffff)
    throw new DnsEncodeError(`CAA record for ${record.name} is longer than 65535 octets`);
  // dns-packet's type names only three tags; it writes any.
  return { flags: integer(record, 'flags', flags, 0xff), tag: tag as WireCaa['tag'], value };
}

function integer(record: ResourceRecord, field: string, value: unknown, max: number): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > max)
    throw new DnsEncodeError(`${record.type} record for ${record.name} has an invalid ${field} ${String(value)}`);
  return value;
}

function structured<T extends object>(record: ResourceRecord): T {
  if (typeof record.data !== 'object' || record.data === null)
    throw new DnsEncodeError(`${record.type} record for ${record.name} needs structured data`);
  return record.data as T;
}

function text(record: ResourceRecord): string {
  if (typeof record.data !== 'string')
    throw new DnsEncodeError(`${record.type} record for ${record.name} needs text data`);
  return record.data;
}

const OCTET = '(25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)';
const IPV4 = new RegExp(`^${OCTET}\\.${OCTET}\\.${OCTET}\\.${OCTET}$`);

/** The four octets of a dotted-quad IPv4 address (no leading zeros), or undefined. */
export function ipv4Bytes(value: string): Uint8Array | undefined {
  const match = IPV4.exec(value);
  return match ? Uint8Array.of(Number(match[1]), Number(match[2]), Number(match[3]), Number(match[4])) : undefined;
}

/** The sixteen octets of an IPv6 address in RFC 4291 §2.2 text form (no zone), or undefined. */
export function ipv6Bytes(value: string): Uint8Array | undefined {
  let textual = value;
  const lastColon = value.lastIndexOf(':');
  if (lastColon < 0) return undefined;
  if (value.includes('.', lastColon)) {
    const v4 = ipv4Bytes(value.slice(lastColon + 1));
    if (!v4) return undefined;
    textual = `${value.slice(0, lastColon + 1)}${((v4[0]! << 8) | v4[1]!).toString(16)}:${((v4[2]! << 8) | v4[3]!).toString(16)}`;
  }
  const halves = textual.split('::');
  if (halves.length > 2) return undefined;
  const groups = halves.map((half) => (half === '' ? [] : half.split(':')));
  const given = groups.flat();
  if (!given.every((group) => /^[0-9a-fA-F]{1,4}$/.test(group))) return undefined;
  if (halves.length === 1 ? given.length !== 8 : given.length > 7) return undefined;
  const words = [...groups[0]!, ...Array<string>(8 - given.length).fill('0'), ...(groups[1] ?? [])];
  const bytes = new Uint8Array(16);
  words.forEach((word, index) => {
    const number = Number.parseInt(word, 16);
    bytes[index * 2] = number >> 8;
    bytes[index * 2 + 1] = number & 0xff;
  });
  return bytes;
}
