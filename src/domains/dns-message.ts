// Encodes kennel's DNS responses (RFC 1035 §4.1) octet by octet: the question echoed as it was sent,
// records with name compression (§4.1.4), an OPT record when the query had one (RFC 6891), and TC=1
// when the records do not fit. Pure, and linear in the answer: it stops writing at its limit. (dns2's
// encoder keeps one array element per bit, so a 64 KB answer took ~100 ms of the shared event loop.)
import type { CaaData, MxData, QueryType, ResourceRecord, SoaData } from './dns-types.js';
import { HEADER_OCTETS, OPT_TYPE, type Query } from './dns-wire.js';

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
  authoritative: boolean;
  answers: readonly ResourceRecord[];
  authority: readonly ResourceRecord[];
}

/** Our advertised EDNS UDP payload size (the DNS flag day 2020 value). */
export const EDNS_PAYLOAD = 1232;
/** Type codes of the records kennel serves (RFC 1035 §3.2.2, RFC 3596, RFC 8659). */
export const TYPE_CODES: Record<QueryType, number> = {
  A: 1,
  NS: 2,
  CNAME: 5,
  SOA: 6,
  MX: 15,
  TXT: 16,
  AAAA: 28,
  CAA: 257,
};

const CLASS_IN = 1;
const MAX_LABEL_OCTETS = 63;
const MAX_NAME_OCTETS = 255;
/** Compression pointers have 14 bits of offset. */
const POINTER_REACH = 0x4000;

/**
 * The response to `query` in at most `limit` octets. When the records do not fit: with `truncate`,
 * the header (TC=1), question and OPT only (RFC 6891 §7), which a question always fits in 512 octets;
 * without, a DnsEncodeError. A record that cannot be encoded throws DnsEncodeError either way.
 */
export function encodeResponse(query: Query, content: ResponseContent, limit: number, truncate: boolean): Buffer {
  const full = writeMessage(query, content, limit, false);
  if (!full.overflowed) return full.toBuffer();
  if (!truncate) throw new DnsEncodeError(`the answer needs more than ${limit} octets`);
  return writeMessage(query, { ...content, answers: [], authority: [] }, limit, true).toBuffer();
}

function writeMessage(query: Query, content: ResponseContent, limit: number, tc: boolean): MessageWriter {
  const writer = new MessageWriter(limit);
  writer.u16(query.id);
  writer.u8(0x80 | (content.authoritative ? 0x04 : 0) | (tc ? 0x02 : 0) | (query.rd ? 0x01 : 0));
  writer.u8((query.cd ? 0x10 : 0) | (content.rcode & 0x0f));
  for (const count of [1, content.answers.length, content.authority.length, query.edns ? 1 : 0]) writer.u16(count);
  writer.rememberName(query.labels, HEADER_OCTETS);
  writer.bytes(query.question);
  for (const record of [...content.answers, ...content.authority]) writer.record(record);
  if (query.edns) {
    const ttl = (((content.rcode >> 4) & 0xff) << 24) | (query.edns.dnssecOk ? 0x8000 : 0);
    writer.u8(0);
    for (const field of [OPT_TYPE, EDNS_PAYLOAD]) writer.u16(field);
    writer.u32(ttl >>> 0);
    writer.u16(0);
  }
  return writer;
}

/** A growing message that refuses to pass `limit`: past it, writes are dropped and `overflowed` is set. */
class MessageWriter {
  #bytes: Buffer;
  #length = 0;
  overflowed = false;
  /** Name suffixes already written, lower-cased octets as Latin-1, and where they start. */
  readonly #names = new Map<string, number>();
  /** Record names as given, and where they were written: the same owner again costs one lookup. */
  readonly #written = new Map<string, number>();

  constructor(readonly limit: number) {
    this.#bytes = Buffer.alloc(Math.min(limit, 512));
  }

  toBuffer(): Buffer {
    return this.#bytes.subarray(0, this.#length);
  }

  u8(value: number): void {
    const at = this.#claim(1);
    if (at >= 0) this.#bytes[at] = value;
  }

  u16(value: number): void {
    const at = this.#claim(2);
    if (at >= 0) this.#bytes.writeUInt16BE(value, at);
  }

  u32(value: number): void {
    const at = this.#claim(4);
    if (at >= 0) this.#bytes.writeUInt32BE(value, at);
  }

  bytes(data: Uint8Array): void {
    const at = this.#claim(data.length);
    if (at >= 0) this.#bytes.set(data, at);
  }

  /** Makes a name written elsewhere (the echoed question) a target for later pointers. */
  rememberName(labels: readonly string[], offset: number): void {
    // A label holding a '.' octet would make suffix keys ambiguous: only the suffixes after it are reused.
    const first = labels.findLastIndex((label) => label.includes('.')) + 1;
    let at = offset + labels.slice(0, first).reduce((octets, label) => octets + 1 + label.length, 0);
    for (let index = first; index < labels.length && at < POINTER_REACH; index++) {
      this.#names.set(suffixKey(labels.slice(index)), at);
      at += 1 + labels[index]!.length;
    }
  }

  /** A domain name, compressed against every name written before it. */
  name(text: string): void {
    const known = this.#written.get(text);
    if (known !== undefined) return this.u16(0xc000 | known);
    const labels = nameLabels(text);
    let start: number | undefined;
    for (let index = 0; index < labels.length; index++) {
      const key = suffixKey(labels.slice(index));
      const target = this.#names.get(key);
      if (target !== undefined) {
        this.#remember(text, start ?? target);
        return this.u16(0xc000 | target);
      }
      start ??= this.#length;
      if (this.#length < POINTER_REACH && !this.overflowed) this.#names.set(key, this.#length);
      this.u8(labels[index]!.length);
      this.bytes(Buffer.from(labels[index]!, 'latin1'));
    }
    this.u8(0);
    if (start !== undefined) this.#remember(text, start);
  }

  #remember(text: string, at: number): void {
    if (at < POINTER_REACH && !this.overflowed) this.#written.set(text, at);
  }

  /** One resource record of class IN; RDLENGTH is filled in once the RDATA is written. */
  record(record: ResourceRecord): void {
    if (record.type === 'ALIAS')
      throw new DnsEncodeError(`ALIAS record for ${record.name} cannot go on the wire; flatten it to A/AAAA`);
    this.name(record.name);
    this.u16(TYPE_CODES[record.type]);
    this.u16(CLASS_IN);
    this.u32(Number.isFinite(record.ttl) ? Math.min(Math.max(Math.floor(record.ttl), 0), 0x7fffffff) : 0);
    const lengthAt = this.#length;
    this.u16(0);
    writeRdata(this, record);
    if (!this.overflowed) this.#bytes.writeUInt16BE(this.#length - lengthAt - 2, lengthAt);
  }

  #claim(size: number): number {
    if (this.overflowed || this.#length + size > this.limit) {
      this.overflowed = true;
      return -1;
    }
    const at = this.#length;
    this.#length += size;
    if (this.#length > this.#bytes.length) {
      const grown = Buffer.alloc(Math.min(Math.max(this.#length, this.#bytes.length * 2), this.limit));
      this.#bytes.copy(grown, 0, 0, at);
      this.#bytes = grown;
    }
    return at;
  }
}

function suffixKey(labels: readonly string[]): string {
  return labels.join('.').replace(/[A-Z]/g, (letter) => letter.toLowerCase());
}

/** A record's name as labels of octets (UTF-8 bytes as Latin-1 characters), checked against RFC 1035 §2.3.4. */
function nameLabels(text: string): string[] {
  const trimmed = text.endsWith('.') ? text.slice(0, -1) : text;
  if (trimmed === '') return [];
  const labels = trimmed.split('.').map((label) => Buffer.from(label, 'utf8').toString('latin1'));
  if (labels.some((label) => label.length === 0 || label.length > MAX_LABEL_OCTETS))
    throw new DnsEncodeError(`name "${text}" has an empty label or one longer than ${MAX_LABEL_OCTETS} octets`);
  if (labels.reduce((octets, label) => octets + 1 + label.length, 1) > MAX_NAME_OCTETS)
    throw new DnsEncodeError(`name "${text}" is longer than ${MAX_NAME_OCTETS} octets`);
  return labels;
}

function writeRdata(writer: MessageWriter, record: ResourceRecord): void {
  switch (record.type) {
    case 'A':
    case 'AAAA':
      return writer.bytes(addressBytes(record));
    case 'CNAME':
    case 'NS':
      return writer.name(text(record));
    case 'TXT':
      return writeTxt(writer, record);
    case 'MX': {
      const mx = structured<MxData>(record);
      writer.u16(integer(record, 'preference', mx.preference, 0xffff));
      return writer.name(mx.exchange);
    }
    case 'CAA':
      return writer.bytes(caaRdata(record));
    case 'SOA':
      return writeSoa(writer, record);
    default:
      throw new DnsEncodeError(`${record.type} record for ${record.name} cannot be encoded`);
  }
}

function writeSoa(writer: MessageWriter, record: ResourceRecord): void {
  const soa = structured<SoaData>(record);
  writer.name(soa.mname);
  writer.name(soa.rname);
  for (const field of ['serial', 'refresh', 'retry', 'expire', 'minimum'] as const)
    writer.u32(integer(record, field, soa[field], 0xffffffff));
}

function addressBytes(record: ResourceRecord): Uint8Array {
  const value = text(record);
  const bytes = record.type === 'A' ? ipv4Bytes(value) : ipv6Bytes(value);
  if (!bytes) throw new DnsEncodeError(`${record.type} record for ${record.name} has an invalid address "${value}"`);
  return bytes;
}

/** TXT RDATA: the text as character-strings of at most 255 octets (RFC 1035 §3.3.14). */
function writeTxt(writer: MessageWriter, record: ResourceRecord): void {
  const strings = txtStrings(text(record)).map((part) => Buffer.from(part, 'utf8'));
  if (strings.reduce((octets, part) => octets + 1 + part.length, 0) > 0xffff)
    throw new DnsEncodeError(`TXT record for ${record.name} is longer than 65535 octets`);
  for (const part of strings) {
    writer.u8(part.length);
    writer.bytes(part);
  }
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

function caaRdata(record: ResourceRecord): Uint8Array {
  const { flags, tag, value } = structured<CaaData>(record);
  // RFC 8659 §4.1 wants an alphanumeric tag; printable ASCII is what kennel has always accepted.
  if (typeof tag !== 'string' || !/^[\x21-\x7e]{1,255}$/.test(tag))
    throw new DnsEncodeError(`CAA record for ${record.name} has an unencodable tag "${tag}"`);
  if (typeof value !== 'string') throw new DnsEncodeError(`CAA record for ${record.name} needs a text value`);
  const rdata = Buffer.from(`\0\0${tag}${value}`, 'utf8');
  rdata[0] = integer(record, 'flags', flags, 0xff);
  rdata[1] = tag.length;
  if (rdata.length > 0xffff) throw new DnsEncodeError(`CAA record for ${record.name} is longer than 65535 octets`);
  return rdata;
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

const OCTET = /^(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/;

/** The four octets of a dotted-quad IPv4 address (no leading zeros), or undefined. */
export function ipv4Bytes(value: string): Uint8Array | undefined {
  const parts = value.split('.');
  return parts.length === 4 && parts.every((part) => OCTET.test(part)) ? Uint8Array.from(parts, Number) : undefined;
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
