// The DNS wire checks kennel runs on a query before any parser sees it, so that the work per packet
// is bounded whatever arrives (RFC 1035 §4.1, RFC 6891 §6.1), plus TCP framing (RFC 1035 §4.2.2).
// Pure: bytes in, verdicts and bytes out.

/** Limits on what a query may hold (see docs/decisions.md for why these values). */
export const QUERY_LIMITS = {
  /** Octets in one query; a real one (a question, an OPT with cookie and padding, maybe a TSIG) is well under 1 KB. */
  maxOctets: 4096,
  /** Additional records: an OPT (RFC 6891) and a TSIG or SIG(0) (RFC 8945, RFC 2931). */
  maxAdditionals: 2,
  /** Compression pointers followed per name; a query's names point back a step or two at most. */
  maxPointers: 16,
} as const;

/** Octets in a DNS header (RFC 1035 §4.1.1). */
export const HEADER_OCTETS = 12;
/** The largest DNS message a two-octet TCP length prefix can announce. */
export const MAX_MESSAGE_OCTETS = 0xffff;
/** Response codes kennel sends (RFC 1035 §4.1.1, RFC 6891 §9). */
export const RCODE = { NOERROR: 0, FORMERR: 1, SERVFAIL: 2, NXDOMAIN: 3, NOTIMP: 4, YXDOMAIN: 6, BADVERS: 16 } as const;

/** The OPT pseudo-record's type (RFC 6891 §6.1.1). */
export const OPT_TYPE = 41;
const MAX_NAME_OCTETS = 255;
const POINTER = 0xc0;

/** EDNS as a query asked for it (RFC 6891 §6.1.2). */
export interface QueryEdns {
  /** The requestor's UDP payload size (the OPT record's CLASS). */
  payloadSize: number;
  version: number;
  /** DNSSEC OK, copied into the response (RFC 3225 §3). */
  dnssecOk: boolean;
}

/** A query that passed the checks: what the answer needs from it. */
export interface Query {
  id: number;
  /** Recursion desired and checking disabled, copied into the response (RFC 1035, RFC 4035 §3.1.6). */
  rd: boolean;
  cd: boolean;
  /** AD in a query: the client understands AD in the answer (RFC 6840 §5.7). */
  ad: boolean;
  /** The question's labels as sent (octets as Latin-1 characters, case kept). */
  labels: string[];
  type: number;
  class: number;
  /** The question section as sent, echoed byte for byte in the response. */
  question: Uint8Array;
  edns: QueryEdns | undefined;
}

/** What to do with a packet: ignore it, answer an error from its header alone, or answer its question. */
export type Screening =
  | { verdict: 'drop'; reason: string }
  | { verdict: 'reject'; rcode: number; reason: string }
  | { verdict: 'accept'; query: Query };

/**
 * Decides from the raw bytes whether a packet is a query worth answering, and reads it. Responses
 * (QR=1) and packets without a whole header are dropped: answering a response is how two servers (or
 * one server and a spoofed copy of itself) answer each other forever. Work is linear in the packet.
 */
export function screenQuery(message: Uint8Array): Screening {
  if (message.length < HEADER_OCTETS) return { verdict: 'drop', reason: 'shorter than a DNS header' };
  if (message[2]! & 0x80) return { verdict: 'drop', reason: 'a response (QR=1), not a query' };
  const reject = (rcode: number, reason: string): Screening => ({ verdict: 'reject', rcode, reason });
  if (message.length > QUERY_LIMITS.maxOctets)
    return reject(RCODE.FORMERR, `longer than ${QUERY_LIMITS.maxOctets} octets`);
  if (opcodeOf(message) !== 0) return reject(RCODE.NOTIMP, `opcode ${opcodeOf(message)} is not QUERY`);
  const [qdcount, ancount, nscount, arcount] = [4, 6, 8, 10].map((at) => readUint16(message, at));
  if (qdcount !== 1 || ancount !== 0 || nscount !== 0 || arcount! > QUERY_LIMITS.maxAdditionals)
    return reject(RCODE.FORMERR, `sections ${qdcount}/${ancount}/${nscount}/${arcount}; a query has one question`);
  const query = readBody(message, arcount!);
  return typeof query === 'string' ? reject(RCODE.FORMERR, query) : { verdict: 'accept', query };
}

/** A header-only error response to `query` (id, opcode and RD copied; no sections), for rejected queries. */
export function errorResponse(query: Uint8Array, rcode: number, recursionAvailable = false): Buffer {
  const response = Buffer.alloc(HEADER_OCTETS);
  response[0] = query[0]!;
  response[1] = query[1]!;
  response[2] = 0x80 | (opcodeOf(query) << 3) | (query[2]! & 0x01);
  response[3] = (recursionAvailable ? 0x80 : 0) | (rcode & 0x0f);
  return response;
}

function opcodeOf(message: Uint8Array): number {
  return (message[2]! >> 3) & 0x0f;
}

function readUint16(message: Uint8Array, at: number): number {
  return (message[at]! << 8) | message[at + 1]!;
}

/** Reads the question and walks the additional records; a string says what is malformed. */
function readBody(message: Uint8Array, arcount: number): Query | string {
  const name = readName(message, HEADER_OCTETS);
  if (typeof name === 'string') return `question: ${name}`;
  const questionEnd = name.end + 4;
  if (questionEnd > message.length) return 'question: type and class run past the end';
  let offset = questionEnd;
  let edns: QueryEdns | undefined;
  for (let index = 0; index < arcount; index++) {
    const record = readRecord(message, offset);
    if (typeof record === 'string') return `additional ${index}: ${record}`;
    offset = record.end;
    if (record.type !== OPT_TYPE) continue;
    if (edns) return 'more than one OPT record (RFC 6891 §6.1.1)';
    if (record.owner.length > 0) return 'OPT record not owned by the root (RFC 6891 §6.1.2)';
    if (!optionsFit(message, record.rdata, record.end)) return 'EDNS options do not fill the OPT RDATA';
    edns = { payloadSize: record.class, version: (record.ttl >>> 16) & 0xff, dnssecOk: (record.ttl & 0x8000) !== 0 };
  }
  if (offset !== message.length) return `${message.length - offset} octets after the last record`;
  return {
    id: readUint16(message, 0),
    rd: (message[2]! & 0x01) !== 0,
    cd: (message[3]! & 0x10) !== 0,
    ad: (message[3]! & 0x20) !== 0,
    labels: name.labels,
    type: readUint16(message, name.end),
    class: readUint16(message, name.end + 2),
    question: message.subarray(HEADER_OCTETS, questionEnd),
    edns,
  };
}

interface WireRecord {
  owner: string[];
  type: number;
  class: number;
  ttl: number;
  rdata: number;
  end: number;
}

function readRecord(message: Uint8Array, start: number): WireRecord | string {
  const name = readName(message, start);
  if (typeof name === 'string') return name;
  const at = name.end;
  if (at + 10 > message.length) return 'fixed fields run past the end';
  const end = at + 10 + readUint16(message, at + 8);
  if (end > message.length) return 'RDATA runs past the end';
  const ttl = ((readUint16(message, at + 4) << 16) | readUint16(message, at + 6)) >>> 0;
  return {
    owner: name.labels,
    type: readUint16(message, at),
    class: readUint16(message, at + 2),
    ttl,
    rdata: at + 10,
    end,
  };
}

/** Whether EDNS options ({code, length, data}, RFC 6891 §6.1.2) exactly fill the RDATA. */
function optionsFit(message: Uint8Array, start: number, end: number): boolean {
  let offset = start;
  while (offset + 4 <= end) offset += 4 + readUint16(message, offset + 2);
  return offset === end;
}

/**
 * The labels of the name at `start` and the offset just after it, or why it is malformed. A pointer
 * must point before every octet of the name read so far (so no loop is possible) and after the
 * header, at most `maxPointers` times; the name may not exceed 255 octets (RFC 1035 §2.3.4, §4.1.4).
 */
function readName(message: Uint8Array, start: number): { labels: string[]; end: number } | string {
  const labels: string[] = [];
  let offset = start;
  let floor = start;
  let end: number | undefined;
  let octets = 1;
  for (let pointers = 0; ;) {
    if (offset >= message.length) return 'name runs past the end';
    const length = message[offset]!;
    if (length === 0) return { labels, end: end ?? offset + 1 };
    if ((length & POINTER) === POINTER) {
      if (offset + 1 >= message.length) return 'name runs past the end';
      const target = ((length & 0x3f) << 8) | message[offset + 1]!;
      if (target >= floor || target < HEADER_OCTETS) return 'compression pointer does not point back into the body';
      if (++pointers > QUERY_LIMITS.maxPointers) return `more than ${QUERY_LIMITS.maxPointers} compression pointers`;
      end ??= offset + 2;
      offset = floor = target;
      continue;
    }
    if (length & POINTER) return `reserved label type 0x${length.toString(16)}`;
    octets += length + 1;
    if (octets > MAX_NAME_OCTETS) return `name longer than ${MAX_NAME_OCTETS} octets`;
    if (offset + 1 + length > message.length) return 'name runs past the end';
    labels.push(String.fromCharCode(...message.subarray(offset + 1, offset + 1 + length)));
    offset += length + 1;
  }
}

/** A DNS message prefixed with its two-octet length, as TCP carries it. */
export function frame(message: Uint8Array): Buffer {
  const framed = Buffer.alloc(2 + message.length);
  framed.writeUInt16BE(message.length, 0);
  framed.set(message, 2);
  return framed;
}

/**
 * Splits a TCP byte stream into DNS messages. Chunks are kept as they arrive and copied once, when a
 * whole message is there, so a peer dribbling bytes costs linear work. The caller bounds `buffered`
 * by pausing the socket.
 */
export class FrameReader {
  readonly #chunks: Buffer[] = [];
  #buffered = 0;

  /** Octets held, complete messages or not. */
  get buffered(): number {
    return this.#buffered;
  }

  push(chunk: Buffer): void {
    if (chunk.length === 0) return;
    this.#chunks.push(chunk);
    this.#buffered += chunk.length;
  }

  /** Whether a whole message is waiting. */
  hasMessage(): boolean {
    return this.#buffered >= 2 && this.#buffered >= 2 + this.#peekLength();
  }

  /** The next whole message without its prefix, or undefined until one has arrived. */
  next(): Buffer | undefined {
    if (!this.hasMessage()) return undefined;
    return this.#take(2 + this.#peekLength()).subarray(2);
  }

  #peekLength(): number {
    const first = this.#chunks[0]!;
    return first.length >= 2 ? first.readUInt16BE(0) : (first[0]! << 8) | this.#chunks[1]![0]!;
  }

  #take(size: number): Buffer {
    const out = Buffer.allocUnsafe(size);
    let filled = 0;
    let used = 0;
    while (filled < size) {
      const chunk = this.#chunks[used]!;
      const part = Math.min(chunk.length, size - filled);
      chunk.copy(out, filled, 0, part);
      filled += part;
      if (part === chunk.length) used++;
      else this.#chunks[used] = chunk.subarray(part);
    }
    this.#chunks.splice(0, used);
    this.#buffered -= size;
    return out;
  }
}
