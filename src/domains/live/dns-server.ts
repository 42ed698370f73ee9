// A real DNS server on loopback (UDP and TCP on one port) answering from a DnsLookup, so real clients
// (Node's dns.Resolver, dig, a browser's resolver pointed at it) see the simulator's zones.
//
// Answers: opcode QUERY, class IN, exactly one question (RFC 9619). Zones hold A, AAAA, CNAME, CAA,
// TXT, MX, NS and SOA; any other data type (HTTPS, DS, DNSKEY, SRV, TYPE65280, …) is answered as a
// real server answers a type it holds no record of: NODATA with the SOA, or NXDOMAIN, following CNAMEs
// (RFC 1034 §4.3.2, RFC 3597 §3). Meta types (ANY, AXFR, IXFR, OPT) get NOTIMP. A lookup that throws, or an answer
// that cannot be encoded: SERVFAIL. Who answers is the server's `role`: a recursive resolver (the
// default: `kennel serve` answers as the simulator's public resolver) sets RA=1 and never AA; an
// authoritative server sets AA=1 on answers from its zones and never RA. RD is copied from the query
// either way. TXT text over 255 octets is split into character-strings (clients join them back).
// UDP answers larger than the client's EDNS size (512 without EDNS, at most our own 1232) go out with
// TC=1, the question and the OPT record (RFC 6891 §7); clients retry over TCP on the same port.
//
// Hostile input: dns-wire.ts reads each packet within fixed bounds before anything else does.
// - Responses (QR=1) and packets shorter than a header are dropped, never answered: answering a
//   response lets a spoofed packet bounce between this server and itself forever.
// - Other opcodes get NOTIMP; more than 4096 octets, sections other than one question and at most two
//   additional records, compression pointers that do not point strictly backwards (or more than 16
//   per name), names over 255 octets, malformed OPT records and trailing octets get FORMERR, from the
//   header alone. EDNS versions other than 0 get BADVERS (RFC 6891 §6.1.3).
// - TCP: a connection's answers are written only while its write buffer is under 16 KiB; past that
//   the server stops reading it until 'drain' (backpressure). It answers at most 16 pipelined queries
//   per event-loop turn, stops reading while a largest message's worth (65,537 octets) of input
//   waits, closes a connection idle for 10 s, and keeps at most 150 connections open.
//
// The sockets are node:dgram and node:net, and dns-message.ts encodes the answers with dns-packet
// once it has checked every record. dns2 was used before: its servers answer whatever parses
// (responses included), never settle `listen()` when a bind fails, and buffer TCP answers without
// bound; its encoder took ~100 ms for a 64 KB answer (dns-packet: under 4 ms, docs/decisions.md).
import { createSocket, type Socket as UdpSocket } from 'node:dgram';
import { createServer, isIPv6, type Server as TcpServer, type Socket as TcpSocket } from 'node:net';
import { ToolError, whyNotBound } from '../../core/tool-error.js';
import { DnsEncodeError, encodeResponse, EDNS_PAYLOAD, TYPE_CODES, type ResponseContent } from './dns-message.js';
import type { DnsLookup, QueryType, ResourceRecord, SoaData } from '../sim/dns-types.js';
import { errorResponse, frame, FrameReader, MAX_MESSAGE_OCTETS, RCODE, screenQuery, type Query } from './dns-wire.js';

export { DnsEncodeError };

/** A running DNS server. */
export interface DnsServerHandle {
  host: string;
  /** The same number for UDP and TCP. */
  port: number;
  /** What the TCP side holds right now (for tests and the reliability suite). */
  stats(): DnsServerStats;
  close(): Promise<void>;
}

/** Open TCP connections and the bytes they hold. */
export interface DnsServerStats {
  tcpConnections: number;
  /** Connections the server has stopped reading (their client does not read its answers). */
  pausedTcpConnections: number;
  /** Answers written but not yet taken by the kernel, over all connections. */
  bufferedOutputBytes: number;
  /** Query bytes received but not yet answered, over all connections. */
  bufferedInputBytes: number;
}

export interface DnsServerOptions {
  /** Address to bind; default `127.0.0.1`. */
  host?: string;
  /** 0 (default) picks a free port, the same for UDP and TCP. */
  port?: number;
  /** Told about lookups that threw and answers that could not be encoded (both answered SERVFAIL). */
  onError?: (error: unknown) => void;
  /**
   * Whom the server answers as. `recursive` (default): a resolver answering from its cache, AA=0 and
   * RA=1 (RFC 1035 §4.1.1). `authoritative`: the zones' own name server, AA=1 and RA=0.
   */
  role?: DnsServerRole;
  /** TCP connections open at once; more are closed on accept. Default 150 (BIND's `tcp-clients`). */
  maxTcpConnections?: number;
  /** A TCP connection with no traffic for this long is closed. Default 10 s (RFC 7766 §6.2.3). */
  tcpIdleTimeoutMs?: number;
}

export type DnsServerRole = 'recursive' | 'authoritative';

/** A port kennel cannot bind: the user must choose another (a ToolError carrying the errno code). */
export class DnsBindError extends ToolError {
  readonly code: string | undefined;

  constructor(message: string, code: string | undefined) {
    super(message);
    this.name = 'DnsBindError';
    this.code = code;
  }
}

const QUERY_TYPES = new Map<number, QueryType>(
  Object.entries(TYPE_CODES).map(([type, code]) => [code, type as QueryType]),
);
/** OPT and the question-only types (RFC 6895 §3.1: 128–255, e.g. IXFR, AXFR, ANY): no zone data to ask for. */
const META_TYPES = new Set([0, 41]);

/** The type a query asks for: its mnemonic, `TYPEnnn` for any other data type (RFC 3597), undefined for meta types. */
function queryTypeOf(code: number): QueryType | undefined {
  const named = QUERY_TYPES.get(code);
  if (named) return named;
  return META_TYPES.has(code) || (code >= 128 && code <= 255) ? undefined : `TYPE${code}`;
}
const CLASS_IN = 1;
/** UDP payload without EDNS (RFC 1035 §4.2.1). */
const PLAIN_UDP_PAYLOAD = 512;
const TCP_DEFAULTS = { maxConnections: 150, idleTimeoutMs: 10_000 };
/** Bytes a connection may have queued for writing before the server stops reading it. */
const TCP_WRITE_BUFFER = 16 * 1024;
/** Pipelined queries answered per connection before yielding to other work. */
const ANSWERS_PER_TURN = 16;
/** Unread input that pauses a connection: one message of the largest size and its prefix. */
const TCP_INPUT_BUFFER = MAX_MESSAGE_OCTETS + 2;
const PORT_ATTEMPTS = 5;

type Transport = 'udp' | 'tcp';
/** Answers one packet's bytes, or undefined to stay silent. */
type Respond = (message: Buffer, transport: Transport) => Buffer | undefined;

/** Starts a DNS server on UDP and TCP (same port) that answers every question with `lookup`. */
export async function startDnsServer(lookup: DnsLookup, options: DnsServerOptions = {}): Promise<DnsServerHandle> {
  const host = options.host ?? '127.0.0.1';
  const onError = quietly(options.onError);
  const respond = createResponder(lookup, options.role ?? 'recursive', onError);
  const connections = new Set<TcpConnection>();
  const idleTimeoutMs = options.tcpIdleTimeoutMs ?? TCP_DEFAULTS.idleTimeoutMs;
  const accept = (socket: TcpSocket): void => {
    const connection = new TcpConnection(socket, respond, idleTimeoutMs);
    connections.add(connection);
    socket.on('close', () => connections.delete(connection));
  };
  const maxConnections = options.maxTcpConnections ?? TCP_DEFAULTS.maxConnections;
  const { udp, tcp, port } = await bindBoth(host, options.port ?? 0, () => tcpServer(accept, maxConnections));
  udp.on('message', (message, peer) => {
    // Port 0 cannot be answered; UDP answers are best effort (the client retries), so send errors are ignored.
    const response = peer.port === 0 ? undefined : respond(message, 'udp');
    if (response) udp.send(response, peer.port, peer.address, () => undefined);
  });
  udp.on('error', onError);
  tcp.on('error', onError);
  let closing: Promise<void> | undefined;
  const close = (): Promise<void> => (closing ??= closeBoth(udp, tcp, connections));
  return { host, port, stats: () => tcpStats(connections), close };
}

/** The caller's error listener, made unable to throw into socket handlers. */
function quietly(listener: ((error: unknown) => void) | undefined): (error: unknown) => void {
  return (error) => {
    try {
      listener?.(error);
    } catch {
      // a failing listener must not take the server down
    }
  };
}

/** Screens and answers one packet; never throws (a packet must not be able to take a listener down). */
function createResponder(lookup: DnsLookup, role: DnsServerRole, onError: (error: unknown) => void): Respond {
  const recursive = role === 'recursive';
  return (message, transport) => {
    try {
      const screened = screenQuery(message);
      if (screened.verdict === 'drop') return undefined;
      if (screened.verdict === 'reject') return errorResponse(message, screened.rcode, recursive);
      return answerQuery(lookup, recursive, screened.query, transport, onError);
    } catch (error) {
      onError(error); // a bug in the wire code: the packet goes unanswered
      return undefined;
    }
  };
}

function answerQuery(
  lookup: DnsLookup,
  recursive: boolean,
  query: Query,
  transport: Transport,
  onError: (error: unknown) => void,
): Buffer {
  const limit = transport === 'tcp' ? MAX_MESSAGE_OCTETS : udpLimit(query);
  try {
    const said = answer(lookup, query);
    // AA only for an authoritative server's answers from its zones; RA on everything a resolver says.
    const flags = { authoritative: !recursive && said.authoritative, recursionAvailable: recursive };
    return encodeResponse(query, { ...said, ...flags }, limit, transport === 'udp');
  } catch (error) {
    onError(error);
    return encodeResponse(query, { ...content(RCODE.SERVFAIL), recursionAvailable: recursive }, limit, true);
  }
}

/** What to say to one query, as its zones' own server would (throws only when the lookup throws). */
function answer(lookup: DnsLookup, query: Query): ResponseContent {
  if (query.edns && query.edns.version !== 0) return content(RCODE.BADVERS);
  const type = queryTypeOf(query.type);
  if (query.class !== CLASS_IN || !type) return content(RCODE.NOTIMP);
  const result = lookup(normaliseName(query.labels.join('.')), type, { checkingDisabled: query.cd });
  const extendedError = result.bogus ? { extendedError: extendedDnsError(result.bogus) } : {};
  if (result.rcode === 'SERVFAIL') return { ...content(RCODE.SERVFAIL), authoritative: true, ...extendedError };
  // An SOA in the authority section marks a negative answer (NXDOMAIN, or NODATA after any CNAMEs).
  const authority = result.authority.map(negativeTtl);
  // RFC 6840 §5.7: AD only to a client that asked for DNSSEC (DO) or said it reads AD (AD in the query).
  const authenticData = result.security === 'secure' && (query.ad || query.edns?.dnssecOk === true);
  return { rcode: RCODE[result.rcode], authoritative: true, answers: result.answers, authority, authenticData };
}

/** RFC 8914 §4 INFO-CODEs for why a validating resolver found an answer bogus. */
const EDE_CODES: Record<string, number> = { 'DNSSEC Bogus': 6, 'DNSSEC Indeterminate': 5, 'DNSKEY Missing': 9 };

function extendedDnsError(reason: string): { code: number; text: string } {
  return { code: EDE_CODES[reason] ?? EDE_CODES['DNSSEC Bogus']!, text: `the chain of trust is broken: ${reason}` };
}

/** A negative answer's SOA goes out with TTL = min(SOA TTL, SOA MINIMUM) (RFC 2308 §3), whatever the lookup said. */
function negativeTtl(record: ResourceRecord): ResourceRecord {
  if (record.type !== 'SOA' || typeof record.data !== 'object' || record.data === null) return record;
  const minimum = (record.data as Partial<SoaData>).minimum;
  return typeof minimum === 'number' && minimum < record.ttl ? { ...record, ttl: minimum } : record;
}

function content(rcode: number): ResponseContent {
  return { rcode, authoritative: false, answers: [], authority: [] };
}

function normaliseName(name: string): string {
  return name.toLowerCase().replace(/\.$/, '');
}

/** The most a UDP answer may take: the client's EDNS size within [512, ours], or 512 without EDNS. */
function udpLimit(query: Query): number {
  if (!query.edns) return PLAIN_UDP_PAYLOAD;
  return Math.min(Math.max(query.edns.payloadSize, PLAIN_UDP_PAYLOAD), EDNS_PAYLOAD);
}

/**
 * One TCP connection: pipelined queries (RFC 7766 §6.2.1.1) answered in order, with bounded buffers
 * both ways. A client that sends without reading fills our write buffer; we then stop reading it, so
 * its queries back up in its own kernel buffers instead of our memory.
 */
class TcpConnection {
  readonly reader = new FrameReader();
  #scheduled = false;
  #peerEnded = false;
  #finished = false;

  constructor(
    readonly socket: TcpSocket,
    private readonly respond: Respond,
    idleTimeoutMs: number,
  ) {
    socket.setTimeout(idleTimeoutMs, () => socket.destroy());
    socket.on('data', (chunk: Buffer) => {
      this.reader.push(chunk);
      this.#pump();
    });
    socket.on('drain', () => this.#pump());
    socket.on('end', () => {
      this.#peerEnded = true;
      this.#pump();
    });
    socket.on('error', () => undefined); // resets by the peer are routine; 'close' follows
  }

  #pump(): void {
    for (let answered = 0; answered < ANSWERS_PER_TURN && this.#writable(); answered++) {
      const message = this.reader.next();
      if (!message) break;
      const response = this.respond(message, 'tcp');
      if (response && this.#writable()) this.socket.write(frame(response));
    }
    this.#flow();
  }

  #writable(): boolean {
    return !this.socket.destroyed && !this.socket.writableNeedDrain;
  }

  /** Pauses or resumes reading, schedules the next batch, or finishes. */
  #flow(): void {
    if (this.socket.destroyed) return;
    const blocked = this.socket.writableNeedDrain;
    const waiting = this.reader.hasMessage();
    if (blocked || this.reader.buffered >= TCP_INPUT_BUFFER) this.socket.pause();
    else this.socket.resume();
    if (waiting && !blocked) this.#schedule();
    else if (this.#peerEnded && !waiting) this.#finish();
  }

  #schedule(): void {
    if (this.#scheduled) return;
    this.#scheduled = true;
    setImmediate(() => {
      this.#scheduled = false;
      this.#pump();
    });
  }

  /** Half-closes our side once the peer has and nothing is left to answer (a partial message never will be). */
  #finish(): void {
    if (this.#finished) return;
    this.#finished = true;
    this.socket.end();
  }
}

function tcpStats(connections: Set<TcpConnection>): DnsServerStats {
  const stats = { tcpConnections: 0, pausedTcpConnections: 0, bufferedOutputBytes: 0, bufferedInputBytes: 0 };
  for (const { socket, reader } of connections) {
    stats.tcpConnections++;
    if (socket.isPaused()) stats.pausedTcpConnections++;
    stats.bufferedOutputBytes += socket.writableLength;
    stats.bufferedInputBytes += reader.buffered;
  }
  return stats;
}

function tcpServer(accept: (socket: TcpSocket) => void, maxConnections: number): TcpServer {
  // allowHalfOpen: a client may send its query and half-close; it still gets its answer.
  const server = createServer({ allowHalfOpen: true, highWaterMark: TCP_WRITE_BUFFER }, accept);
  server.maxConnections = maxConnections;
  return server;
}

/** Binds UDP then TCP to the same port; with port 0, retries when TCP finds the UDP port taken. */
async function bindBoth(
  host: string,
  port: number,
  newTcp: () => TcpServer,
): Promise<{ udp: UdpSocket; tcp: TcpServer; port: number }> {
  for (let attempt = 1; ; attempt++) {
    const udp = createSocket({ type: isIPv6(host) ? 'udp6' : 'udp4' });
    const udpPort = await bindUdp(udp, host, port);
    const tcp = newTcp();
    try {
      await listenTcp(tcp, host, udpPort);
      return { udp, tcp, port: udpPort };
    } catch (error) {
      await new Promise<void>((resolve) => udp.close(() => resolve()));
      if (port !== 0 || attempt >= PORT_ATTEMPTS || !(error instanceof DnsBindError && error.code === 'EADDRINUSE'))
        throw error;
    }
  }
}

function bindUdp(udp: UdpSocket, host: string, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const onError = (error: NodeJS.ErrnoException): void => {
      udp.close();
      reject(bindError('UDP', host, port, error));
    };
    udp.once('error', onError);
    udp.bind(port, host, () => {
      udp.off('error', onError);
      resolve(udp.address().port);
    });
  });
}

function listenTcp(tcp: TcpServer, host: string, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const onError = (error: NodeJS.ErrnoException): void => reject(bindError('TCP', host, port, error));
    tcp.once('error', onError);
    tcp.listen(port, host, () => {
      tcp.off('error', onError);
      resolve();
    });
  });
}

function bindError(transport: string, host: string, port: number, error: NodeJS.ErrnoException): DnsBindError {
  const why = whyNotBound(error);
  return new DnsBindError(`DNS ${transport} port ${port} on ${host} ${why}; choose another port`, error.code);
}

function closeBoth(udp: UdpSocket, tcp: TcpServer, connections: Set<TcpConnection>): Promise<void> {
  const udpClosed = new Promise<void>((resolve) => udp.close(() => resolve()));
  const tcpClosed = new Promise<void>((resolve) => tcp.close(() => resolve()));
  for (const { socket } of connections) socket.destroy();
  return Promise.all([udpClosed, tcpClosed]).then(() => undefined);
}
