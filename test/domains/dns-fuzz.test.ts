// The DNS server under a seeded fuzz run, over UDP and TCP: every answer is a well-formed response
// to a query (never to a response), and the server keeps answering.
import { createSocket, type Socket as UdpSocket } from 'node:dgram';
import { Packet } from 'dns2';
import { describe, expect, it, vi } from 'vitest';
import { header, opt, query, question, record } from './dns-packets.js';
import { hostileDns, pointerChainQuery, TYPE, framed } from './hostile-dns.js';

const dns = hostileDns();

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
      for (const packet of packets.slice(start, start + 50)) socket.send(packet, dns.server.port, '127.0.0.1');
      await new Promise((resolve) => setImmediate(resolve));
    }
    const alive = await dns.udpExchange(
      [query('example.com', TYPE.SOA, { id: 99 })],
      (got) => got.some((a) => a.header.id === 99),
      0,
    );
    socket.close();
    expect(alive[0]!.answers).toHaveLength(1);
    expect(answers.length).toBeGreaterThan(500);
    expectWellFormed(answers);
    expect(dns.errors).toEqual([]);
  });

  it('answers 2,100 mutated packets pipelined over TCP and a raw byte stream, and keeps answering', async () => {
    const packets = fuzzPackets(11, 2100);
    const sessions = await Promise.all(
      [0, 1, 2].map(async (part) => {
        const client = await dns.tcpClient();
        client.socket.end(Buffer.concat(packets.slice(part * 700, part * 700 + 700).map(framed)));
        await client.closed;
        return client;
      }),
    );
    const garbage = await dns.tcpClient();
    garbage.socket.end(Buffer.concat(fuzzPackets(13, 200)));
    await garbage.closed;
    const frames = [...sessions, garbage].flatMap((session) => session.frames);
    expect(frames.length).toBeGreaterThan(300);
    expectWellFormed(frames);
    const check = await dns.tcpClient();
    check.socket.write(framed(query('example.com', TYPE.SOA, { id: 98 })));
    await vi.waitFor(() => expect(check.answers.map((answer) => answer.header.id)).toEqual([98]));
    check.socket.destroy();
    expect(dns.errors).toEqual([]);
    await vi.waitFor(() => expect(dns.server.stats().tcpConnections).toBe(0));
  });
});
