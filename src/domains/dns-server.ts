// A real DNS server on loopback (UDP and TCP on one port) answering from a DnsLookup, so real clients
// (Node's dns.Resolver, dig, a browser's resolver pointed at it) see the simulator's zones.
//
// Answers: opcode QUERY, class IN, exactly one question (RFC 9619) of type A, AAAA, CNAME, CAA, TXT,
// MX, NS or SOA. Other types (ANY, PTR, SRV, …) get NOTIMP rather than a NODATA answer, so a client
// asking for something kennel does not model finds out at once. More or fewer questions, or records
// that do not decode: FORMERR. A lookup that throws, or an answer that cannot be encoded: SERVFAIL.
// Answers set AA (the lookup is the source of truth) and never RA (no recursion).
//
// What dns2 (3.x) cannot do, and how it is handled here:
// - TXT strings over 255 octets: dns2 writes the length into one octet and corrupts the message; we
//   split the text into character-strings of at most 255 octets ourselves (clients join them back).
// - A query whose header does not parse is dropped with a `requestError` event (no FORMERR is
//   possible without the id); the client times out.
// - UDP responses larger than the client's EDNS size (512 without EDNS) go out with TC=1 and only the
//   question (dns2's own truncation); clients retry over TCP on the same port.
// - Its `listen()` never settles when a bind fails, so sockets are bound here with explicit error
//   handling; its TCP server keeps idle connections 10 s, so close() destroys open connections.
import { isIPv4, isIPv6, type Socket as TcpSocket } from 'node:net';
import { Packet, TCPServer, UDPServer, type Resource } from 'dns2';
import { ToolError } from '../core/tool-error.js';
import type { CaaData, DnsAnswer, DnsLookup, MxData, QueryType, ResourceRecord, SoaData } from './dns-types.js';

/** A running DNS server. */
export interface DnsServerHandle {
  host: string;
  /** The same number for UDP and TCP. */
  port: number;
  close(): Promise<void>;
}

export interface DnsServerOptions {
  /** Address to bind; default `127.0.0.1`. */
  host?: string;
  /** 0 (default) picks a free port, the same for UDP and TCP. */
  port?: number;
  /** Told about lookups that threw and answers that could not be encoded (both answered SERVFAIL). */
  onError?: (error: unknown) => void;
}

/** A record the lookup returned that cannot go on the wire (bad address, ALIAS, wrong data shape). */
export class DnsEncodeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DnsEncodeError';
  }
}

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
  (['A', 'AAAA', 'CNAME', 'CAA', 'TXT', 'MX', 'NS', 'SOA'] as const).map((type) => [Packet.TYPE[type], type]),
);
/** Our advertised EDNS UDP payload size (the DNS flag day 2020 value). */
const EDNS_PAYLOAD = 1232;
const TXT_CHUNK = 255;
const PORT_ATTEMPTS = 5;

type Handler = (request: Packet, send: (response: Packet) => unknown) => void;

/** Starts a DNS server on UDP and TCP (same port) that answers every question with `lookup`. */
export async function startDnsServer(lookup: DnsLookup, options: DnsServerOptions = {}): Promise<DnsServerHandle> {
  const host = options.host ?? '127.0.0.1';
  const onError = quietly(options.onError);
  const handler = createHandler(lookup, onError);
  const { udp, tcp, port } = await bindBoth(handler, host, options.port ?? 0);
  udp.on('error', onError);
  tcp.on('error', onError);
  const connections = trackConnections(tcp);
  let closing: Promise<void> | undefined;
  const close = (): Promise<void> => (closing ??= closeBoth(udp, tcp, connections));
  return { host, port, close };
}

/** The caller's error listener, made unable to throw into dns2's socket handlers. */
function quietly(listener: ((error: unknown) => void) | undefined): (error: unknown) => void {
  return (error) => {
    try {
      listener?.(error);
    } catch {
      // a failing listener must not take the server down
    }
  };
}

/** The request handler shared by UDP and TCP: always answers, never throws. */
function createHandler(lookup: DnsLookup, onError: (error: unknown) => void): Handler {
  return (request, send) => {
    const response = answerSafely(lookup, request, onError);
    Promise.resolve()
      .then(() => send(response))
      .catch(onError);
  };
}

function answerSafely(lookup: DnsLookup, request: Packet, onError: (error: unknown) => void): Packet {
  try {
    const response = answer(lookup, request);
    response.toBuffer(); // encode now, so a bad record becomes SERVFAIL here rather than an exception in dns2
    return response;
  } catch (error) {
    onError(error);
    return Packet.createErrorResponseFromRequest(request, Packet.RCODE.SERVFAIL);
  }
}

/** Builds the response to one request (throws only when the lookup throws or a record is malformed). */
function answer(lookup: DnsLookup, request: Packet): Packet {
  const [question] = request.questions;
  if (!question || request.questions.length !== 1 || request.errors.length > 0) {
    return Packet.createErrorResponseFromRequest(request, Packet.RCODE.FORMERR);
  }
  const type = QUERY_TYPES.get(question.type);
  if (request.header.opcode !== 0 || question.class !== Packet.CLASS.IN || !type) {
    return Packet.createErrorResponseFromRequest(request, Packet.RCODE.NOTIMP);
  }
  const result = lookup(normaliseName(question.name), type);
  return encodeAnswer(request, result);
}

function normaliseName(name: string): string {
  return name.toLowerCase().replace(/\.$/, '');
}

function encodeAnswer(request: Packet, result: DnsAnswer): Packet {
  const response = Packet.createResponseFromRequest(request);
  response.header.aa = 1;
  response.header.rcode = Packet.RCODE[result.rcode];
  if (result.rcode !== 'SERVFAIL') {
    response.answers = result.answers.map(toResource);
    response.authorities = result.authority.map(toResource);
  }
  if (request.additionals.some((record) => record.type === Packet.TYPE.EDNS)) {
    response.additionals.push(Packet.Resource.EDNS([], { udpPayloadSize: EDNS_PAYLOAD }) as Resource);
  }
  return response;
}

function toResource(record: ResourceRecord): Resource {
  if (record.type === 'ALIAS')
    throw new DnsEncodeError(`ALIAS record for ${record.name} cannot go on the wire; flatten it to A/AAAA`);
  return new Packet.Resource({
    name: record.name,
    type: Packet.TYPE[record.type],
    class: Packet.CLASS.IN,
    ttl: record.ttl,
    ...rdata(record),
  });
}

function rdata(record: ResourceRecord): Partial<Resource> {
  switch (record.type) {
    case 'A':
      return { address: address(record, isIPv4) };
    case 'AAAA':
      return { address: address(record, isIPv6) };
    case 'CNAME':
      return { domain: text(record) };
    case 'NS':
      return { ns: text(record) };
    case 'TXT':
      return { data: txtStrings(text(record)) };
    case 'MX': {
      const mx = structured<MxData>(record);
      return { priority: mx.preference, exchange: mx.exchange };
    }
    case 'CAA':
      return caaRdata(record);
    case 'SOA':
      return soaRdata(structured<SoaData>(record));
    default:
      throw new DnsEncodeError(`${record.type} record for ${record.name} cannot be encoded`);
  }
}

function caaRdata(record: ResourceRecord): Partial<Resource> {
  const { flags, tag, value } = structured<CaaData>(record);
  // dns2 writes the tag length as characters, so only a printable-ASCII tag encodes correctly (RFC 8659 wants alphanumerics).
  if (!/^[\x21-\x7e]{1,255}$/.test(tag))
    throw new DnsEncodeError(`CAA record for ${record.name} has an unencodable tag "${tag}"`);
  return { flags, tag, value };
}

function soaRdata(soa: SoaData): Partial<Resource> {
  const { mname: primary, rname: admin, serial, refresh, retry, expire: expiration, minimum } = soa;
  return { primary, admin, serial, refresh, retry, expiration, minimum };
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

function address(record: ResourceRecord, valid: (input: string) => boolean): string {
  const value = text(record);
  if (!valid(value))
    throw new DnsEncodeError(`${record.type} record for ${record.name} has an invalid address "${value}"`);
  return value;
}

/** TXT text as character-strings of at most 255 octets (RFC 1035 §3.3.14), split between characters. */
function txtStrings(value: string): string[] {
  const strings: string[] = [];
  let current = '';
  let octets = 0;
  for (const character of value) {
    const size = Buffer.byteLength(character, 'utf8');
    if (octets + size > TXT_CHUNK) {
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

/** Binds UDP then TCP to the same port; with port 0, retries when TCP finds the UDP port taken. */
async function bindBoth(
  handler: Handler,
  host: string,
  port: number,
): Promise<{ udp: UDPServer; tcp: TCPServer; port: number }> {
  for (let attempt = 1; ; attempt++) {
    const udp = new UDPServer({ type: isIPv6(host) ? 'udp6' : 'udp4' }).on('request', handler);
    const udpPort = await bindUdp(udp, host, port);
    const tcp = new TCPServer().on('request', handler);
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

function bindUdp(udp: UDPServer, host: string, port: number): Promise<number> {
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

function listenTcp(tcp: TCPServer, host: string, port: number): Promise<void> {
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
  const why =
    error.code === 'EADDRINUSE'
      ? 'is already in use'
      : error.code === 'EACCES'
        ? 'needs privileges kennel does not have'
        : `cannot be bound (${error.code ?? error.message})`;
  return new DnsBindError(`DNS ${transport} port ${port} on ${host} ${why}; choose another port`, error.code);
}

function trackConnections(tcp: TCPServer): Set<TcpSocket> {
  const connections = new Set<TcpSocket>();
  tcp.on('connection', (socket: TcpSocket) => {
    connections.add(socket);
    socket.on('close', () => connections.delete(socket));
  });
  return connections;
}

function closeBoth(udp: UDPServer, tcp: TCPServer, connections: Set<TcpSocket>): Promise<void> {
  const udpClosed = new Promise<void>((resolve) => udp.close(() => resolve()));
  const tcpClosed = new Promise<void>((resolve) => tcp.close(() => resolve()));
  for (const socket of connections) socket.destroy();
  return Promise.all([udpClosed, tcpClosed]).then(() => undefined);
}
