import { isIPv4, isIPv6 } from 'node:net';
import { Packet } from 'dns2';
import { describe, expect, it } from 'vitest';
import { DnsEncodeError, encodeResponse, ipv4Bytes, ipv6Bytes } from '../../src/domains/live/dns-message.js';
import type { ResourceRecord } from '../../src/domains/sim/dns-types.js';
import { errorResponse, FrameReader, QUERY_LIMITS, screenQuery, type Query } from '../../src/domains/live/dns-wire.js';
import { header, name, opt, question, record, u16 } from './dns-packets.js';

const plain = Buffer.concat([header(), question()]);

/** A query whose only flaw is its size: an OPT padded (RFC 7830 option 12) to `size` octets in all. */
function padded(size: number): Buffer {
  const base = Buffer.concat([header({ ar: 1 }), question()]);
  const padding = size - base.length - 11 - 4;
  return Buffer.concat([base, opt({ rdata: Buffer.concat([u16(12), u16(padding), Buffer.alloc(padding)]) })]);
}

/** Two additional records: a private-type record whose RDATA holds a name and `chain` pointers back along it,
 * and a second record owned by a pointer to the last of them (so reading its owner takes chain + 1 jumps). */
function pointerChain(chain: number): Buffer {
  const start = Buffer.concat([header({ ar: 2 }), question()]);
  const rdataAt = start.length + 1 + 10;
  const rdata: Buffer[] = [Buffer.from([1, 0x61, 0])];
  let last = rdataAt;
  for (let i = 0; i < chain; i++) {
    const at = rdataAt + 3 + i * 2;
    rdata.push(u16(0xc000 | last));
    last = at;
  }
  const first = record(Buffer.from([0]), 0xff00, Buffer.concat(rdata));
  return Buffer.concat([start, first, record(u16(0xc000 | last), 0xff01, Buffer.alloc(0))]);
}

function rcodeOf(packet: Buffer): unknown {
  const screened = screenQuery(packet);
  return screened.verdict === 'reject' ? screened.rcode : screened.verdict;
}

describe('screenQuery', () => {
  it('accepts a plain query and reads its question, flags and EDNS', () => {
    expect(screenQuery(plain)).toEqual({
      verdict: 'accept',
      query: {
        id: 0x1234,
        rd: true,
        cd: false,
        ad: false,
        labels: ['docs', 'example', 'com'],
        type: 1,
        class: 1,
        question: question(),
        edns: undefined,
      },
    });
    const withEdns = Buffer.concat([
      header({ flags: 0x0130, ar: 1 }),
      question('DoCs.example.com', 16),
      opt({ size: 4096, dnssecOk: true }),
    ]);
    expect(screenQuery(withEdns)).toMatchObject({
      verdict: 'accept',
      query: {
        rd: true,
        cd: true,
        ad: true,
        labels: ['DoCs', 'example', 'com'],
        type: 16,
        edns: { payloadSize: 4096, version: 0, dnssecOk: true },
      },
    });
  });

  it.each([
    ['shorter than a header', plain.subarray(0, 11)],
    ['a response (QR=1)', Buffer.concat([header({ flags: 0x8100 }), question()])],
    [
      'a response even when oversized and malformed',
      Buffer.concat([header({ flags: 0x8000, qd: 9 }), Buffer.alloc(5000, 0xc0)]),
    ],
    ['a response with another opcode', Buffer.concat([header({ flags: 0xa000 }), question()])],
  ])('drops %s', (_what, packet) => {
    expect(screenQuery(packet).verdict).toBe('drop');
  });

  it('accepts exactly the size limit and refuses one octet more with FORMERR', () => {
    expect(padded(QUERY_LIMITS.maxOctets)).toHaveLength(4096);
    expect(screenQuery(padded(4096)).verdict).toBe('accept');
    expect(rcodeOf(padded(4097))).toBe(1);
  });

  it.each([
    ['STATUS', 2],
    ['NOTIFY', 4],
    ['UPDATE', 5],
  ])('answers opcode %s with NOTIMP', (_name, opcode) => {
    expect(rcodeOf(Buffer.concat([header({ flags: opcode << 11 }), question()]))).toBe(4);
  });

  it.each([
    ['no question', { qd: 0 }],
    ['two questions', { qd: 2 }],
    ['an answer', { an: 1 }],
    ['an authority record', { ns: 1 }],
    ['three additional records', { ar: 3 }],
    ['65535 questions', { qd: 0xffff }],
  ])('answers a query with %s FORMERR from the header alone', (_what, counts) => {
    expect(rcodeOf(Buffer.concat([header(counts), question(), question()]))).toBe(1);
  });

  const long = (last: number): string => ['a'.repeat(63), 'b'.repeat(63), 'c'.repeat(63), 'd'.repeat(last)].join('.');
  it('accepts a 255-octet name and refuses 256', () => {
    expect(name(long(61))).toHaveLength(255);
    expect(screenQuery(Buffer.concat([header(), question(long(61))])).verdict).toBe('accept');
    expect(rcodeOf(Buffer.concat([header(), question(long(62))]))).toBe(1);
  });

  it(`follows up to ${QUERY_LIMITS.maxPointers} compression pointers in a name and refuses one more`, () => {
    expect(screenQuery(pointerChain(QUERY_LIMITS.maxPointers - 1)).verdict).toBe('accept');
    expect(screenQuery(pointerChain(QUERY_LIMITS.maxPointers))).toMatchObject({
      verdict: 'reject',
      rcode: 1,
      reason: expect.stringMatching(/more than 16 compression pointers/),
    });
  });

  const tail = (bytes: number[]): Buffer =>
    Buffer.concat([header({ ar: 1 }), question(), Buffer.from(bytes), u16(0xff00), u16(1), Buffer.alloc(4), u16(0)]);
  it.each([
    [
      'a pointer in the question (it can only point into the header)',
      Buffer.concat([header(), Buffer.from([0xc0, 0x00]), u16(1), u16(1)]),
    ],
    ['a pointer to itself', tail([0xc0, 34])],
    ['a pointer forwards', tail([0xc0, 40])],
    ['a pointer back into the same name', tail([1, 0x61, 0xc0, 34])],
    ['a pointer into the header', tail([0xc0, 0x04])],
    ['a label of reserved type 01', tail([0x40])],
    ['a label of reserved type 10', tail([0x80])],
    ['a name running past the end', Buffer.concat([header(), Buffer.from([7, 0x65, 0x78])])],
    ['a question without type and class', Buffer.concat([header(), name('docs.example.com'), u16(1)])],
    ['octets after the question', Buffer.concat([plain, Buffer.from([0])])],
    [
      'a record whose RDATA runs past the end',
      Buffer.concat([
        header({ ar: 1 }),
        question(),
        Buffer.from([0]),
        u16(16),
        u16(1),
        Buffer.alloc(4),
        u16(9),
        Buffer.alloc(8),
      ]),
    ],
    [
      'a record cut inside its fixed fields',
      Buffer.concat([header({ ar: 1 }), question(), Buffer.from([0]), u16(41), u16(512)]),
    ],
    ['two OPT records', Buffer.concat([header({ ar: 2 }), question(), opt(), opt()])],
    [
      'an OPT record not owned by the root',
      Buffer.concat([header({ ar: 1 }), question(), opt({ owner: Buffer.from([0xc0, 12]) })]),
    ],
    [
      'EDNS options that overrun the OPT RDATA',
      Buffer.concat([header({ ar: 1 }), question(), opt({ rdata: Buffer.concat([u16(10), u16(6), Buffer.alloc(4)]) })]),
    ],
    [
      'EDNS RDATA shorter than an option header',
      Buffer.concat([header({ ar: 1 }), question(), opt({ rdata: Buffer.from([0, 10]) })]),
    ],
  ])('answers %s FORMERR', (_what, packet) => {
    expect(rcodeOf(packet)).toBe(1);
  });

  it.each([
    ['a pointer to itself', tail([0xc0, 34])],
    ['a pointer back into the same name (a loop)', tail([1, 0x61, 0xc0, 34])],
  ])('refuses %s at the first pointer, before any loop is followed', (_what, packet) => {
    expect(screenQuery(packet)).toMatchObject({
      verdict: 'reject',
      reason: expect.stringMatching(/does not point back/),
    });
  });

  it('accepts an additional record named by a pointer back to the question, and a non-zero EDNS version (BADVERS is the server’s)', () => {
    const tsigLike = record(Buffer.from([0xc0, 12]), 250, Buffer.alloc(16));
    expect(screenQuery(Buffer.concat([header({ ar: 2 }), question(), opt(), tsigLike])).verdict).toBe('accept');
    expect(screenQuery(Buffer.concat([header({ ar: 1 }), question(), opt({ version: 1 })]))).toMatchObject({
      query: { edns: { version: 1 } },
    });
  });

  it('answers the probe’s 65 KB packet of 65535 questions and pointer chains FORMERR without reading a name', () => {
    const chain = Buffer.alloc(65_535);
    header({ qd: 0xffff }).copy(chain);
    for (let at = 12; at + 1 < chain.length; at += 2) chain.writeUInt16BE(0xc000 | Math.max(12, (at - 2) & 0x3fff), at);
    expect(rcodeOf(chain)).toBe(1);
  });
});

describe('errorResponse', () => {
  it('is the header alone: id, opcode and RD copied, QR set, the code, no sections', () => {
    const response = errorResponse(Buffer.concat([header({ id: 0xbeef, flags: 0x2110, qd: 3 }), question()]), 4);
    expect(response.toString('hex')).toBe('beef' + 'a104' + '0000'.repeat(4));
    expect(Packet.parse(response).header).toMatchObject({ id: 0xbeef, qr: 1, opcode: 4, rd: 1, rcode: 4, qdcount: 0 });
  });
});

describe('FrameReader', () => {
  const framed = (body: Buffer): Buffer => Buffer.concat([u16(body.length), body]);

  it('splits two messages that arrive in one chunk', () => {
    const reader = new FrameReader();
    reader.push(Buffer.concat([framed(Buffer.from('first')), framed(Buffer.from('second'))]));
    expect(reader.next()?.toString()).toBe('first');
    expect(reader.next()?.toString()).toBe('second');
    expect(reader.next()).toBeUndefined();
    expect(reader.buffered).toBe(0);
  });

  it('joins a message dribbled one octet at a time, length prefix included', () => {
    const reader = new FrameReader();
    const message = framed(Buffer.alloc(300, 7));
    for (const [index, octet] of message.entries()) {
      expect(reader.next()).toBeUndefined();
      reader.push(Buffer.from([octet]));
      expect(reader.buffered).toBe(index === message.length - 1 ? 302 : index + 1);
    }
    expect(reader.next()).toEqual(Buffer.alloc(300, 7));
    expect(reader.buffered).toBe(0);
  });

  it('keeps the start of the next message when a chunk ends inside it, and passes empty messages on', () => {
    const reader = new FrameReader();
    const stream = Buffer.concat([framed(Buffer.from('abc')), framed(Buffer.alloc(0)), framed(Buffer.from('xyz'))]);
    reader.push(stream.subarray(0, 8));
    expect(reader.hasMessage()).toBe(true);
    expect(reader.next()?.toString()).toBe('abc');
    expect(reader.next()).toEqual(Buffer.alloc(0));
    expect(reader.next()).toBeUndefined();
    expect(reader.buffered).toBe(1);
    reader.push(stream.subarray(8));
    expect(reader.next()?.toString()).toBe('xyz');
  });
});

describe('encodeResponse (decoded by dns2, an independent decoder)', () => {
  const accept = (packet: Buffer): Query => {
    const screened = screenQuery(packet);
    if (screened.verdict !== 'accept') throw new Error(`not accepted: ${JSON.stringify(screened)}`);
    return screened.query;
  };
  const a = (owner: string, address = '192.0.2.10'): ResourceRecord => ({
    name: owner,
    type: 'A',
    ttl: 60,
    data: address,
  });
  const respond = (query: Query, answers: ResourceRecord[], limit = 65_535, truncate = false, rcode = 0): Buffer =>
    encodeResponse(query, { rcode, authoritative: true, answers, authority: [] }, limit, truncate);

  it('echoes the question as sent (case kept) and names the answers it owns as asked', () => {
    const query = accept(Buffer.concat([header(), question('DoCs.ExAmPlE.cOm')]));
    const response = respond(query, [a('docs.example.com'), a('other.example.com')]);
    expect(response.subarray(12, 12 + query.question.length)).toEqual(query.question);
    const owner = 12 + query.question.length;
    expect(response.subarray(owner, owner + query.question.length - 4)).toEqual(name('DoCs.ExAmPlE.cOm'));
    expect(Packet.parse(response).answers).toMatchObject([
      { name: 'DoCs.ExAmPlE.cOm', address: '192.0.2.10', ttl: 60 },
      { name: 'other.example.com', address: '192.0.2.10', ttl: 60 },
    ]);
  });

  it('echoes a question whose labels are not UTF-8 octet for octet', () => {
    const latin1 = Buffer.concat([header({ ar: 1 }), question('caf\xe9.example.com', 16), opt()]);
    const query = accept(latin1);
    const response = respond(query, [], 65_535, false, 3);
    expect(response.subarray(12, 12 + query.question.length)).toEqual(latin1.subarray(12, 12 + query.question.length));
    expect(Packet.parse(response).header).toMatchObject({ qdcount: 1, ancount: 0, arcount: 1, rcode: 3 });
  });

  it('encodes an answer of over 32 KB that an independent decoder reads back record for record', () => {
    const query = accept(plain);
    const text = 'x'.repeat(200);
    const records = Array.from({ length: 200 }, (_, i): ResourceRecord[] => [
      { name: `n${i}.example.com`, type: 'TXT', ttl: 60, data: text },
      { name: `n${i}.example.com`, type: 'CNAME', ttl: 60, data: `t${i}.n${i}.example.com` },
    ]).flat();
    const response = respond(query, records);
    expect(response.length).toBeGreaterThan(0x4000 * 2);
    const parsed = Packet.parse(response);
    expect(parsed.errors).toEqual([]);
    const summary = (r: Record<string, any>): string =>
      `${r.name} ${r.type === 5 ? r.domain : [r.data].flat().join('').length}`;
    expect(parsed.answers.map(summary)).toEqual(records.map((r) => `${r.name} ${r.type === 'CNAME' ? r.data : 200}`));
  });

  it('sets TC and keeps the question and the OPT record when the answer does not fit (RFC 6891 §7)', () => {
    const query = accept(Buffer.concat([header({ ar: 1 }), question(), opt({ size: 512 })]));
    const records = Array.from({ length: 40 }, (_, i) => a(`host-${i}.example.com`));
    const response = respond(query, records, 512, true);
    expect(response.length).toBeLessThanOrEqual(512);
    const parsed = Packet.parse(response);
    expect(parsed.header).toMatchObject({ tc: 1, qdcount: 1, ancount: 0, arcount: 1 });
    expect(parsed.additionals).toMatchObject([{ type: 41, class: 1232 }]);
    expect(() => respond(query, records, 512, false)).toThrow(DnsEncodeError);
    expect(Packet.parse(respond(query, records.slice(0, 3), 512, true)).header.tc).toBe(0);
  });

  it('uses the limit to the octet: an answer of N octets goes out whole at N and as TC=1 at N - 1', () => {
    const query = accept(Buffer.concat([header({ ar: 1 }), question(), opt()]));
    const records = Array.from({ length: 10 }, (_, i) => a(`host-${i}.example.com`));
    const size = respond(query, records).length;
    expect(Packet.parse(respond(query, records, size, true)).answers).toHaveLength(10);
    const cut = Packet.parse(respond(query, records, size - 1, true));
    expect(cut.header).toMatchObject({ tc: 1, ancount: 0, arcount: 1 });
  });

  it('refuses an answer over 65,535 octets (the server answers SERVFAIL over TCP)', () => {
    const big = Array.from({ length: 40 }, (_, i): ResourceRecord => ({
      name: 'big.example.com',
      type: 'TXT',
      ttl: 60,
      data: `${i}-${'z'.repeat(2000)}`,
    }));
    expect(() => respond(accept(plain), big)).toThrow(/needs more than 65535 octets/);
  });

  it('carries an extended RCODE in the OPT record, and copies RD, CD and DO', () => {
    const query = accept(Buffer.concat([header({ flags: 0x0110, ar: 1 }), question(), opt({ dnssecOk: true })]));
    const parsed = Packet.parse(respond(query, [], 65_535, false, 16));
    expect(parsed.header).toMatchObject({ qr: 1, aa: 1, ra: 0, rd: 1, cd: 1, rcode: 16 });
    expect(parsed.additionals).toMatchObject([{ type: 41, version: 0, doFlag: true }]);
  });

  it.each([
    ['::', '00000000000000000000000000000000'],
    ['2001:db8::10', '20010db8000000000000000000000010'],
    ['1:2:3:4:5:6:7::', '00010002000300040005000600070000'],
    ['FE80::A', 'fe80000000000000000000000000000a'],
    ['::ffff:192.0.2.1', '00000000000000000000ffffc0000201'],
  ])('writes AAAA %s as the octets %s (dns-packet’s address codec, given only addresses read here)', (text, hex) => {
    const response = respond(accept(plain), [{ name: 'docs.example.com', type: 'AAAA', ttl: 60, data: text }]);
    expect(response.subarray(response.length - 16).toString('hex')).toBe(hex);
  });

  it.each([
    [{ name: 'x.example.com', type: 'A', ttl: 1, data: '10.0.0.256' }, /invalid address/],
    [{ name: 'x.example.com', type: 'AAAA', ttl: 1, data: '192.0.2.1' }, /invalid address/],
    [{ name: 'x.example.com', type: 'CNAME', ttl: 1, data: 'a..example.com' }, /empty label/],
    [{ name: `${'l'.repeat(64)}.example.com`, type: 'A', ttl: 1, data: '192.0.2.1' }, /longer than 63/],
    [
      { name: 'x.example.com', type: 'MX', ttl: 1, data: { preference: 70_000, exchange: 'mx.example.com' } },
      /invalid preference/,
    ],
    [{ name: 'x.example.com', type: 'CAA', ttl: 1, data: { flags: 0, tag: 'is sue', value: 'ca' } }, /unencodable tag/],
    [{ name: 'x.example.com', type: 'TXT', ttl: 1, data: 'y'.repeat(70_000) }, /longer than 65535/],
    [{ name: 'x.example.com', type: 'ALIAS', ttl: 1, data: 'y.example.com' }, /ALIAS/],
    [{ name: 'x\n.example.com', type: 'A', ttl: 1, data: '192.0.2.1' }, /cannot be encoded/],
  ] as Array<[ResourceRecord, RegExp]>)('refuses %j with a DnsEncodeError, even past a UDP limit', (bad, message) => {
    const records = [...Array.from({ length: 30 }, (_, i) => a(`h${i}.example.com`)), bad];
    expect(() => respond(accept(plain), records, 512, true)).toThrow(message);
  });
});

describe('addresses', () => {
  it.each([
    ['::', '00000000000000000000000000000000'],
    ['::1', '00000000000000000000000000000001'],
    ['2001:db8::10', '20010db8000000000000000000000010'],
    ['1:2:3:4:5:6:7:8', '00010002000300040005000600070008'],
    ['1:2:3:4:5:6:7::', '00010002000300040005000600070000'],
    ['FE80::A', 'fe80000000000000000000000000000a'],
    ['::ffff:192.0.2.1', '00000000000000000000ffffc0000201'],
  ])('reads IPv6 %s', (text, hex) => {
    expect(Buffer.from(ipv6Bytes(text)!).toString('hex')).toBe(hex);
  });

  it.each([
    '1:2:3:4:5:6:7:8:9',
    '1::2::3',
    ':1::2',
    '12345::',
    '::ffff:256.0.0.1',
    '::ffff:1.2.3',
    '1.2.3.4',
    '',
    ':::',
    '1:2:3:4:5:6:7:8::',
    'g::1',
    '1:2:3:4:5:6:7',
  ])('refuses %j as IPv6, as Node does', (text) => {
    expect(ipv6Bytes(text)).toBeUndefined();
    expect(isIPv6(text)).toBe(false);
  });

  it.each([
    ['192.0.2.1', true],
    ['0.0.0.0', true],
    ['255.255.255.255', true],
    ['256.1.1.1', false],
    ['01.2.3.4', false],
    ['1.2.3', false],
    ['1.2.3.4.5', false],
    ['1.2.3.', false],
    [' 1.2.3.4', false],
  ])('reads IPv4 %j: %s, as Node does', (text, valid) => {
    expect(ipv4Bytes(text) !== undefined).toBe(valid);
    expect(isIPv4(text)).toBe(valid);
  });
});
