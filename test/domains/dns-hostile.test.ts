// The DNS server under hostile input, over real sockets: reflected responses, pointer chains, TCP
// clients that never read, too many or idle connections, and a seeded fuzz run. No timings are
// asserted; what must hold is what the server answers, what it holds in memory, and that it lives.
import { createSocket, type Socket as UdpSocket } from 'node:dgram';
import { connect, type Socket } from 'node:net';
import { once } from 'node:events';
import { Packet } from 'dns2';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startDnsServer, type DnsServerHandle, type DnsServerStats } from '../../src/domains/live/dns-server.js';
import type { DnsLookup, ResourceRecord } from '../../src/domains/sim/dns-types.js';
import { header, opt, query, question, record, u16 } from './dns-packets.js';
import { holdsThroughout } from '../helpers/wait.js';

const TYPE = { A: 1, TXT: 16, SOA: 6 };
/** A 12-record TXT set of about 24 KB: one 35-octet query asks for ~700 times its size. */
const BIG: ResourceRecord[] = Array.from({ length: 12 }, (_, i) => ({
  name: 'big.example.com',
  type: 'TXT',
  ttl: 60,
  data: `${i}-${'z'.repeat(2000)}`,
}));
const SOA: ResourceRecord = {
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

let lookups = 0;
const lookup: DnsLookup = (name, type) => {
  lookups++;
  if (name === 'big.example.com' && type === 'TXT') return { rcode: 'NOERROR', answers: BIG, authority: [] };
  if (name === 'docs.example.com' && type === 'A')
    return { rcode: 'NOERROR', answers: [{ name, type: 'A', ttl: 60, data: '192.0.2.10' }], authority: [] };
  if (name === 'example.com' && type === 'SOA') return { rcode: 'NOERROR', answers: [SOA], authority: [] };
  return { rcode: 'NXDOMAIN', answers: [], authority: [SOA] };
};

const errors: unknown[] = [];
let server: DnsServerHandle;

beforeAll(async () => {
  server = await startDnsServer(lookup, { onError: (error) => errors.push(error) });
});
afterAll(() => server.close());

/** Sends packets from one UDP socket; resolves with every answer that came back within `windowMs` of the last one awaited. */
async function udpExchange(
  packets: Buffer[],
  until: (answers: Packet[]) => boolean,
  windowMs = 100,
): Promise<Packet[]> {
  const socket = createSocket('udp4');
  const answers: Packet[] = [];
  socket.on('message', (data) => answers.push(Packet.parse(data)));
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  for (const packet of packets) socket.send(packet, server.port, '127.0.0.1');
  await vi.waitFor(() => expect(until(answers)).toBe(true), { timeout: 5000 });
  await new Promise((resolve) => setTimeout(resolve, windowMs));
  socket.close();
  return answers;
}

/** A TCP connection that collects every framed answer, raw and parsed. */
interface TcpClient {
  socket: Socket;
  frames: Buffer[];
  answers: Packet[];
  closed: Promise<unknown>;
}

async function tcpClient(port = server.port): Promise<TcpClient> {
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

const framed = (packet: Buffer): Buffer => Buffer.concat([u16(packet.length), packet]);

/** A query whose second additional record's owner needs 17 compression jumps (one more than allowed). */
function pointerChainQuery(id: number): Buffer {
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

/** A docs.example.com A query whose OPT carries a padding option (RFC 7830) up to `size` octets. */
function paddedQuery(id: number, size: number): Buffer {
  const padding = size - query('docs.example.com', TYPE.A, { edns: {} }).length - 4;
  const packet = query('docs.example.com', TYPE.A, {
    id,
    edns: { rdata: Buffer.concat([u16(12), u16(padding), Buffer.alloc(padding)]) },
  });
  expect(packet).toHaveLength(size);
  return packet;
}

/** The probe's packet: 65,535 octets claiming 65,535 questions, all compression pointers chained backwards. */
function pointerFlood(id: number): Buffer {
  const packet = Buffer.alloc(65_535);
  header({ id, qd: 0xffff }).copy(packet);
  for (let at = 12; at + 1 < packet.length; at += 2) packet.writeUInt16BE(0xc000 | ((at - 2) & 0x3fff), at);
  return packet;
}

describe('never answers a response (a spoofed one would start a reflection loop)', () => {
  it('drops a QR=1 packet silently while the same socket’s query is answered', async () => {
    const reflected = query('docs.example.com', TYPE.A, { id: 1 });
    reflected[2]! |= 0x80;
    const answers = await udpExchange([reflected, query('docs.example.com', TYPE.A, { id: 2 })], (got) =>
      got.some((answer) => answer.header.id === 2),
    );
    expect(answers.map((answer) => answer.header.id)).toEqual([2]);
  });

  it('drops its own answers sent back to it, so a server spoofed into asking itself goes quiet', async () => {
    const [answer] = await udpExchange([query('docs.example.com', TYPE.A, { id: 7 })], (got) => got.length === 1, 0);
    const socket = createSocket('udp4');
    const bounced: Buffer[] = [];
    socket.on('message', (data) => bounced.push(data));
    socket.send(answer!.toBuffer(), server.port, '127.0.0.1');
    socket.send(query('docs.example.com', TYPE.A, { id: 8 }), server.port, '127.0.0.1');
    await vi.waitFor(() => expect(bounced.length).toBeGreaterThan(0));
    await holdsThroughout(
      () => bounced.length === 1,
      100,
      () => `one answer (to the query), not ${bounced.length}`,
    );
    socket.close();
    expect(bounced.map((data) => data.readUInt16BE(0))).toEqual([8]);
  });
});

describe('bounds the work per packet', () => {
  it.each([
    ['a 17-jump compression chain', pointerChainQuery(41)],
    ['a 4097-octet query', paddedQuery(41, 4097)],
  ])('answers %s over UDP FORMERR, header only', async (_what, packet) => {
    const [answer] = await udpExchange([packet], (got) => got.length > 0, 0);
    expect(answer!.header).toMatchObject({ id: 41, qr: 1, rcode: Packet.RCODE.FORMERR, qdcount: 0, ancount: 0 });
  });

  it('answers the same query padded to exactly 4096 octets', async () => {
    const [answer] = await udpExchange([paddedQuery(42, 4096)], (got) => got.length > 0, 0);
    expect(answer!.header).toMatchObject({ id: 42, rcode: Packet.RCODE.NOERROR, ancount: 1 });
  });
  it('answers the probe’s 65 KB pointer flood over TCP FORMERR and the next pipelined query normally', async () => {
    const client = await tcpClient();
    client.socket.write(
      Buffer.concat([
        framed(pointerFlood(51)),
        framed(pointerChainQuery(52)),
        framed(query('docs.example.com', TYPE.A, { id: 53 })),
      ]),
    );
    await vi.waitFor(() => expect(client.answers).toHaveLength(3));
    expect(client.answers.map(({ header: { id, rcode } }) => [id, rcode])).toEqual([
      [51, Packet.RCODE.FORMERR],
      [52, Packet.RCODE.FORMERR],
      [53, Packet.RCODE.NOERROR],
    ]);
    client.socket.destroy();
  });
});

describe('TCP', () => {
  it('stops reading a client that pipelines queries and never reads, holding bounded buffers, and answers all once it reads', async () => {
    const count = 1000;
    const before = lookups;
    const samples: DnsServerStats[] = [];
    const sampler = setInterval(() => samples.push(server.stats()), 5);
    const client = await tcpClient();
    client.socket.pause();
    client.socket.write(
      Buffer.concat(Array.from({ length: count }, (_, id) => framed(query('big.example.com', TYPE.TXT, { id })))),
    );
    let seen = -1;
    await vi.waitFor(
      () => {
        const stalled = seen === lookups && server.stats().pausedTcpConnections === 1;
        seen = lookups;
        expect(stalled).toBe(true);
      },
      { timeout: 10_000, interval: 100 },
    );
    expect(lookups - before).toBeLessThan(count / 2);
    client.socket.resume();
    await vi.waitFor(() => expect(client.answers).toHaveLength(count), { timeout: 15_000 });
    clearInterval(sampler);
    expect(client.answers.map((answer) => answer.header.id)).toEqual(Array.from({ length: count }, (_, id) => id));
    expect(client.answers.every((answer) => answer.answers.length === BIG.length)).toBe(true);
    expect(samples.some((stats) => stats.pausedTcpConnections === 1)).toBe(true);
    // The write buffer (16 KiB) plus the one answer that crossed it; Node's own default (64 KiB) would show here.
    const answerFrame = 2 + client.frames[0]!.length;
    expect(Math.max(...samples.map((stats) => stats.bufferedOutputBytes))).toBeLessThanOrEqual(16 * 1024 + answerFrame);
    expect(Math.max(...samples.map((stats) => stats.bufferedInputBytes))).toBeLessThanOrEqual(2 * 65_537);
    expect(server.stats()).toMatchObject({ pausedTcpConnections: 0, bufferedOutputBytes: 0, bufferedInputBytes: 0 });
    client.socket.destroy();
  }, 30_000);

  it('stops reading a client that sends faster than it is answered, holding at most about one message of input', async () => {
    const samples: number[] = [];
    const sampler = setInterval(() => samples.push(server.stats().bufferedInputBytes), 2);
    const client = await tcpClient();
    const count = 40_000;
    // Queries without a question: each costs a 12-octet FORMERR, so the answers never block.
    client.socket.write(Buffer.concat(Array.from({ length: count }, (_, id) => framed(header({ id, qd: 0 })))));
    await vi.waitFor(() => expect(client.answers).toHaveLength(count), { timeout: 20_000 });
    clearInterval(sampler);
    expect(Math.max(...samples)).toBeGreaterThan(0);
    expect(Math.max(...samples)).toBeLessThanOrEqual(2 * 65_537);
    client.socket.destroy();
  }, 30_000);

  it('answers pipelined queries a batch per event-loop turn, so a UDP query sent meanwhile is not held behind them', async () => {
    const asked: string[] = [];
    const udp = createSocket('udp4');
    const fair = await startDnsServer((name, type) => {
      // The first TCP query sends a UDP one: it must be answered before the 200 pipelined ones are done.
      if (asked.push(name) === 1) udp.send(query('udp.example.com', TYPE.A), fair.port, '127.0.0.1');
      return lookup(name, type);
    });
    try {
      const client = await tcpClient(fair.port);
      client.socket.write(
        Buffer.concat(Array.from({ length: 200 }, (_, id) => framed(query('docs.example.com', TYPE.A, { id })))),
      );
      await vi.waitFor(() => expect(asked).toHaveLength(201));
      expect(asked.indexOf('udp.example.com')).toBeLessThan(200);
      client.socket.destroy();
    } finally {
      udp.close();
      await fair.close();
    }
  });

  it('answers every query sent before a half-close (more than one batch), then closes its side too', async () => {
    const client = await tcpClient();
    const ids = Array.from({ length: 40 }, (_, id) => 100 + id);
    client.socket.end(Buffer.concat(ids.map((id) => framed(query('docs.example.com', TYPE.A, { id })))));
    await client.closed;
    expect(client.answers.map((answer) => answer.header.id)).toEqual(ids);
  });

  it('closes a connection that ends in the middle of a message, and one that stays idle', async () => {
    const partial = await tcpClient();
    partial.socket.end(
      Buffer.concat([
        framed(query('docs.example.com', TYPE.A, { id: 71 })),
        framed(query('docs.example.com', TYPE.A)).subarray(0, 9),
      ]),
    );
    await partial.closed;
    expect(partial.answers.map((answer) => answer.header.id)).toEqual([71]);
    const idleServer = await startDnsServer(lookup, { tcpIdleTimeoutMs: 50 });
    try {
      const idle = await tcpClient(idleServer.port);
      await idle.closed;
      await vi.waitFor(() => expect(idleServer.stats().tcpConnections).toBe(0));
    } finally {
      await idleServer.close();
    }
  });

  it('keeps at most maxTcpConnections open: one more is closed at once, and a freed slot is reused', async () => {
    const capped = await startDnsServer(lookup, { maxTcpConnections: 2 });
    try {
      const ask = async (client: TcpClient, id: number): Promise<void> => {
        client.socket.write(framed(query('docs.example.com', TYPE.A, { id })));
        await vi.waitFor(() => expect(client.answers.map((answer) => answer.header.id)).toContain(id));
      };
      const first = await tcpClient(capped.port);
      const second = await tcpClient(capped.port);
      await ask(first, 1);
      await ask(second, 2);
      const third = await tcpClient(capped.port);
      third.socket.write(framed(query('docs.example.com', TYPE.A, { id: 3 })));
      await third.closed;
      expect(third.answers).toEqual([]);
      first.socket.destroy();
      await vi.waitFor(() => expect(capped.stats().tcpConnections).toBe(1));
      await ask(await tcpClient(capped.port), 4);
      second.socket.destroy();
    } finally {
      await capped.close();
    }
  });
});

/** mulberry32: a small seeded generator, so a failing fuzz run can be replayed. */
function prng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
}

/** Ids at or above this mark packets sent with QR=1: no answer may carry one. */
const RESPONSE_IDS = 0xf000;

function fuzzPackets(seed: number, count: number): Buffer[] {
  const random = prng(seed);
  const int = (n: number): number => Math.floor(random() * n);
  const names = ['docs.example.com', 'big.example.com', 'example.com', 'x.y.z.example.com', 'NoPe.Example.Com'];
  const seeds = [
    ...names.flatMap((name) => [TYPE.A, TYPE.TXT, TYPE.SOA, 255, 12].map((type) => query(name, type))),
    query('docs.example.com', TYPE.A, { edns: { size: 4096, dnssecOk: true } }),
    query('big.example.com', TYPE.TXT, { edns: { size: 512 } }),
    Buffer.concat([header({ ar: 2 }), question(), opt(), record(Buffer.from([0xc0, 12]), 250, Buffer.alloc(20))]),
    pointerChainQuery(0),
  ];
  return Array.from({ length: count }, () => {
    let packet = Buffer.from(seeds[int(seeds.length)]!);
    switch (int(6)) {
      case 0:
        for (let flips = 1 + int(4); flips > 0; flips--) packet[int(packet.length)]! ^= 1 << int(8);
        break;
      case 1:
        packet[int(packet.length)] = int(256);
        break;
      case 2:
        packet = packet.subarray(0, int(packet.length));
        break;
      case 3:
        packet = Buffer.concat([packet, Buffer.from(Array.from({ length: 1 + int(40) }, () => int(256)))]);
        break;
      case 4:
        if (packet.length >= 12) packet.writeUInt16BE(int(4) === 0 ? 0xffff : int(4), 4 + 2 * int(4));
        break;
      default:
        packet = Buffer.from(Array.from({ length: int(600) }, () => int(256)));
    }
    if (packet.length >= 12)
      packet.writeUInt16BE(packet[2]! & 0x80 ? RESPONSE_IDS + int(0x1000) : int(RESPONSE_IDS), 0);
    return packet;
  });
}

/** Every answer is a well-formed response to a query (never to a response). */
function expectWellFormed(answers: Buffer[]): void {
  for (const data of answers) {
    const parsed = Packet.parse(data);
    expect(parsed.errors).toEqual([]);
    expect(parsed.header.qr).toBe(1);
    expect(parsed.header.id).toBeLessThan(RESPONSE_IDS);
  }
}

describe('fuzz (seeded)', () => {
  it('answers 3,000 mutated and random UDP packets with well-formed responses or silence, and keeps answering', async () => {
    const socket: UdpSocket = createSocket('udp4');
    const answers: Buffer[] = [];
    socket.on('message', (data) => answers.push(data));
    await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
    const packets = fuzzPackets(7, 3000);
    for (let start = 0; start < packets.length; start += 50) {
      for (const packet of packets.slice(start, start + 50)) socket.send(packet, server.port, '127.0.0.1');
      await new Promise((resolve) => setImmediate(resolve));
    }
    const alive = await udpExchange(
      [query('example.com', TYPE.SOA, { id: 99 })],
      (got) => got.some((a) => a.header.id === 99),
      0,
    );
    socket.close();
    expect(alive[0]!.answers).toHaveLength(1);
    expect(answers.length).toBeGreaterThan(500);
    expectWellFormed(answers);
    expect(errors).toEqual([]);
  });

  it('answers 2,100 mutated packets pipelined over TCP and a raw byte stream, and keeps answering', async () => {
    const packets = fuzzPackets(11, 2100);
    const sessions = await Promise.all(
      [0, 1, 2].map(async (part) => {
        const client = await tcpClient();
        client.socket.end(Buffer.concat(packets.slice(part * 700, part * 700 + 700).map(framed)));
        await client.closed;
        return client;
      }),
    );
    const garbage = await tcpClient();
    garbage.socket.end(Buffer.concat(fuzzPackets(13, 200)));
    await garbage.closed;
    const frames = [...sessions, garbage].flatMap((session) => session.frames);
    expect(frames.length).toBeGreaterThan(300);
    expectWellFormed(frames);
    const check = await tcpClient();
    check.socket.write(framed(query('example.com', TYPE.SOA, { id: 98 })));
    await vi.waitFor(() => expect(check.answers.map((answer) => answer.header.id)).toEqual([98]));
    check.socket.destroy();
    expect(errors).toEqual([]);
    await vi.waitFor(() => expect(server.stats().tcpConnections).toBe(0));
  });
});
