// What kennel's DNS server reads off the wire before answering (src/domains/live/dns-wire.ts):
// screening a query, the error response to a bad one, TCP framing.
import { Packet } from 'dns2';
import { describe, expect, it } from 'vitest';
import { errorResponse, FrameReader, QUERY_LIMITS, screenQuery } from '../../src/domains/live/dns-wire.js';
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
