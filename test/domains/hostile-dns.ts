// A DNS server for hostile-input tests (dns-hostile, dns-fuzz), over real sockets: a small world
// with one 24 KB TXT set, a lookup that counts its calls, and UDP and TCP clients that collect
// every answer.
import { createSocket } from 'node:dgram';
import { once } from 'node:events';
import { connect, type Socket } from 'node:net';
import { Packet } from 'dns2';
import { afterAll, beforeAll, expect, vi } from 'vitest';
import { startDnsServer, type DnsServerHandle } from '../../src/domains/live/dns-server.js';
import type { DnsLookup, ResourceRecord } from '../../src/domains/sim/dns-types.js';
import { header, question, record, u16 } from './dns-packets.js';
import { holdsThroughout } from '../helpers/wait.js';

export const TYPE = { A: 1, TXT: 16, SOA: 6 };
/** A 12-record TXT set of about 24 KB: one 35-octet query asks for ~700 times its size. */
export const BIG: ResourceRecord[] = Array.from({ length: 12 }, (_, i) => ({
  name: 'big.example.com',
  type: 'TXT',
  ttl: 60,
  data: `${i}-${'z'.repeat(2000)}`,
}));
export const SOA: ResourceRecord = {
  name: 'example.com',
  type: 'SOA',
  ttl: 3600,
  data: {
    mname: 'ns1.example.com',
    rname: 'hostmaster.example.com',
    serial: 1,
    refresh: 3600,
    retry: 600,
    expire: 604800,
    minimum: 300,
  },
};

function lookupCounting(dns: { lookups: number }): DnsLookup {
  return (name, type) => {
    dns.lookups++;
    if (name === 'big.example.com' && type === 'TXT') return { rcode: 'NOERROR', answers: BIG, authority: [] };
    if (name === 'docs.example.com' && type === 'A')
      return { rcode: 'NOERROR', answers: [{ name, type: 'A', ttl: 60, data: '192.0.2.10' }], authority: [] };
    if (name === 'example.com' && type === 'SOA') return { rcode: 'NOERROR', answers: [SOA], authority: [] };
    return { rcode: 'NXDOMAIN', answers: [], authority: [SOA] };
  };
}

/** A TCP connection that collects every framed answer, raw and parsed. */
export interface TcpClient {
  socket: Socket;
  frames: Buffer[];
  answers: Packet[];
  closed: Promise<unknown>;
}

/** The running server, what it reported, and clients of it. */
export interface HostileDns {
  server: DnsServerHandle;
  /** Errors the server reported through onError (none expected). */
  errors: unknown[];
  /** How many lookups the server made. */
  lookups: number;
  /** The server's lookup (counted): for other servers over the same world. */
  lookup: DnsLookup;
  /**
   * Sends packets from one UDP socket; resolves with the answers once `until` holds, and fails if
   * another arrives within `windowMs` after that.
   */
  udpExchange(packets: Buffer[], until: (answers: Packet[]) => boolean, windowMs?: number): Promise<Packet[]>;
  tcpClient(port?: number): Promise<TcpClient>;
}

/** Starts the server before the calling file's tests and closes it after them. */
export function hostileDns(): HostileDns {
  const dns: HostileDns = {
    server: undefined as unknown as DnsServerHandle,
    errors: [],
    lookups: 0,
    lookup: (name, type) => lookupCounting(dns)(name, type),
    udpExchange: (packets, until, windowMs = 100) => udpExchange(dns.server.port, packets, until, windowMs),
    tcpClient: (port = dns.server.port) => tcpClient(port),
  };
  beforeAll(async () => {
    dns.server = await startDnsServer(dns.lookup, { onError: (error) => dns.errors.push(error) });
  });
  afterAll(() => dns.server.close());
  return dns;
}

async function udpExchange(
  port: number,
  packets: Buffer[],
  until: (answers: Packet[]) => boolean,
  windowMs: number,
): Promise<Packet[]> {
  const socket = createSocket('udp4');
  const answers: Packet[] = [];
  socket.on('message', (data) => answers.push(Packet.parse(data)));
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  for (const packet of packets) socket.send(packet, port, '127.0.0.1');
  await vi.waitFor(() => expect(until(answers)).toBe(true), { timeout: 5000 });
  // A bounded observation: a stray answer (to a packet the server must drop) has no event to wait
  // on, and the server may answer out of order, so a later barrier query would prove nothing.
  const awaited = answers.length;
  await holdsThroughout(
    () => answers.length === awaited,
    windowMs,
    () => `no answer past the ${awaited} awaited, got ${answers.map((answer) => answer.header.id).join(', ')}`,
  );
  socket.close();
  return answers;
}

async function tcpClient(port: number): Promise<TcpClient> {
  const socket = connect(port, '127.0.0.1');
  const client: TcpClient = { socket, frames: [], answers: [], closed: once(socket, 'close') };
  let pending = Buffer.alloc(0);
  socket.on('data', (chunk: Buffer) => {
    pending = Buffer.concat([pending, chunk]);
    while (pending.length >= 2 && pending.length >= 2 + pending.readUInt16BE(0)) {
      const frame = pending.subarray(2, 2 + pending.readUInt16BE(0));
      client.frames.push(frame);
      client.answers.push(Packet.parse(frame));
      pending = pending.subarray(2 + frame.length);
    }
  });
  socket.on('error', () => undefined);
  await once(socket, 'connect');
  return client;
}

export const framed = (packet: Buffer): Buffer => Buffer.concat([u16(packet.length), packet]);

/** A query whose second additional record's owner needs 17 compression jumps (one more than allowed). */
export function pointerChainQuery(id: number): Buffer {
  const start = Buffer.concat([header({ id, ar: 2 }), question()]);
  const rdataAt = start.length + 11;
  const rdata: Buffer[] = [Buffer.from([1, 0x61, 0])];
  let last = rdataAt;
  for (let i = 0; i < 16; i++) {
    rdata.push(u16(0xc000 | last));
    last = rdataAt + 3 + i * 2;
  }
  return Buffer.concat([
    start,
    record(Buffer.from([0]), 0xff00, Buffer.concat(rdata)),
    record(u16(0xc000 | last), 0xff01, Buffer.alloc(0)),
  ]);
}
