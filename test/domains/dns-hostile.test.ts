// The DNS server under hostile input, over real sockets: reflected responses, pointer chains, TCP
// clients that never read, too many or idle connections (the seeded fuzz run: dns-fuzz.test.ts).
// No timings are asserted; what must hold is what the server answers, what it holds in memory, and
// that it lives.
import { createSocket } from 'node:dgram';
import { Packet } from 'dns2';
import { describe, expect, it, vi } from 'vitest';
import { startDnsServer, type DnsServerStats } from '../../src/domains/live/dns-server.js';
import { header, query, u16 } from './dns-packets.js';
import { holdsThroughout } from '../helpers/wait.js';
import { hostileDns, pointerChainQuery, TYPE, BIG, framed, type TcpClient } from './hostile-dns.js';

const dns = hostileDns();

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
    const answers = await dns.udpExchange([reflected, query('docs.example.com', TYPE.A, { id: 2 })], (got) =>
      got.some((answer) => answer.header.id === 2),
    );
    expect(answers.map((answer) => answer.header.id)).toEqual([2]);
  });

  it('drops its own answers sent back to it, so a server spoofed into asking itself goes quiet', async () => {
    const [answer] = await dns.udpExchange(
      [query('docs.example.com', TYPE.A, { id: 7 })],
      (got) => got.length === 1,
      0,
    );
    const socket = createSocket('udp4');
    const bounced: Buffer[] = [];
    socket.on('message', (data) => bounced.push(data));
    socket.send(answer!.toBuffer(), dns.server.port, '127.0.0.1');
    socket.send(query('docs.example.com', TYPE.A, { id: 8 }), dns.server.port, '127.0.0.1');
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
    const [answer] = await dns.udpExchange([packet], (got) => got.length > 0, 0);
    expect(answer!.header).toMatchObject({ id: 41, qr: 1, rcode: Packet.RCODE.FORMERR, qdcount: 0, ancount: 0 });
  });

  it('answers the same query padded to exactly 4096 octets', async () => {
    const [answer] = await dns.udpExchange([paddedQuery(42, 4096)], (got) => got.length > 0, 0);
    expect(answer!.header).toMatchObject({ id: 42, rcode: Packet.RCODE.NOERROR, ancount: 1 });
  });
  it('answers the probe’s 65 KB pointer flood over TCP FORMERR and the next pipelined query normally', async () => {
    const client = await dns.tcpClient();
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
    const before = dns.lookups;
    const samples: DnsServerStats[] = [];
    const sampler = setInterval(() => samples.push(dns.server.stats()), 5);
    const client = await dns.tcpClient();
    client.socket.pause();
    client.socket.write(
      Buffer.concat(Array.from({ length: count }, (_, id) => framed(query('big.example.com', TYPE.TXT, { id })))),
    );
    let seen = -1;
    await vi.waitFor(
      () => {
        const stalled = seen === dns.lookups && dns.server.stats().pausedTcpConnections === 1;
        seen = dns.lookups;
        expect(stalled).toBe(true);
      },
      { timeout: 10_000, interval: 100 },
    );
    expect(dns.lookups - before).toBeLessThan(count / 2);
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
    expect(dns.server.stats()).toMatchObject({
      pausedTcpConnections: 0,
      bufferedOutputBytes: 0,
      bufferedInputBytes: 0,
    });
    client.socket.destroy();
  }, 30_000);

  it('stops reading a client that sends faster than it is answered, holding at most about one message of input', async () => {
    const samples: number[] = [];
    const sampler = setInterval(() => samples.push(dns.server.stats().bufferedInputBytes), 2);
    const client = await dns.tcpClient();
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
      return dns.lookup(name, type);
    });
    try {
      const client = await dns.tcpClient(fair.port);
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
    const client = await dns.tcpClient();
    const ids = Array.from({ length: 40 }, (_, id) => 100 + id);
    client.socket.end(Buffer.concat(ids.map((id) => framed(query('docs.example.com', TYPE.A, { id })))));
    await client.closed;
    expect(client.answers.map((answer) => answer.header.id)).toEqual(ids);
  });

  it('closes a connection that ends in the middle of a message, and one that stays idle', async () => {
    const partial = await dns.tcpClient();
    partial.socket.end(
      Buffer.concat([
        framed(query('docs.example.com', TYPE.A, { id: 71 })),
        framed(query('docs.example.com', TYPE.A)).subarray(0, 9),
      ]),
    );
    await partial.closed;
    expect(partial.answers.map((answer) => answer.header.id)).toEqual([71]);
    const idleServer = await startDnsServer(dns.lookup, { tcpIdleTimeoutMs: 50 });
    try {
      const idle = await dns.tcpClient(idleServer.port);
      await idle.closed;
      await vi.waitFor(() => expect(idleServer.stats().tcpConnections).toBe(0));
    } finally {
      await idleServer.close();
    }
  });

  it('keeps at most maxTcpConnections open: one more is closed at once, and a freed slot is reused', async () => {
    const capped = await startDnsServer(dns.lookup, { maxTcpConnections: 2 });
    try {
      const ask = async (client: TcpClient, id: number): Promise<void> => {
        client.socket.write(framed(query('docs.example.com', TYPE.A, { id })));
        await vi.waitFor(() => expect(client.answers.map((answer) => answer.header.id)).toContain(id));
      };
      const first = await dns.tcpClient(capped.port);
      const second = await dns.tcpClient(capped.port);
      await ask(first, 1);
      await ask(second, 2);
      const third = await dns.tcpClient(capped.port);
      third.socket.write(framed(query('docs.example.com', TYPE.A, { id: 3 })));
      await third.closed;
      expect(third.answers).toEqual([]);
      first.socket.destroy();
      await vi.waitFor(() => expect(capped.stats().tcpConnections).toBe(1));
      await ask(await dns.tcpClient(capped.port), 4);
      second.socket.destroy();
    } finally {
      await capped.close();
    }
  });
});

/** mulberry32: a small seeded generator, so a failing fuzz run can be replayed. */
