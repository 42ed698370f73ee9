// DNS messages for the fuzzer (RFC 1035 wire format, built by hand so they can be wrong on
// purpose): valid queries, and one table of hostile families drawn from a seeded generator.

export const TYPES = {
  A: 1,
  NS: 2,
  CNAME: 5,
  SOA: 6,
  MX: 15,
  TXT: 16,
  AAAA: 28,
  OPT: 41,
  ANY: 255,
  AXFR: 252,
  CAA: 257,
};
const NAMES = [
  'example.com',
  'www.example.com',
  'docs.example.com',
  'example.org',
  'example.net',
  'nx.example.com',
  'kennel-pages.dev',
  '.',
];

/** A 12-byte header. `flags` is the second 16-bit word (QR, opcode, AA, TC, RD, RA, Z, RCODE). */
export function header({ id = 0, flags = 0x0100, qd = 1, an = 0, ns = 0, ar = 0 }) {
  const out = Buffer.alloc(12);
  out.writeUInt16BE(id & 0xffff, 0);
  out.writeUInt16BE(flags & 0xffff, 2);
  [qd, an, ns, ar].forEach((count, index) => out.writeUInt16BE(count & 0xffff, 4 + index * 2));
  return out;
}

/** A name as uncompressed labels ('.' is the root). */
export function encodeName(name) {
  const labels = name === '.' ? [] : name.split('.').filter(Boolean);
  return Buffer.concat([
    ...labels.map((label) => Buffer.concat([Buffer.from([label.length]), Buffer.from(label, 'latin1')])),
    Buffer.from([0]),
  ]);
}

function typeClass(type, klass = 1) {
  const out = Buffer.alloc(4);
  out.writeUInt16BE(type, 0);
  out.writeUInt16BE(klass, 2);
  return out;
}

/** An EDNS OPT pseudo-record (RFC 6891) with `payload` size and raw option bytes. */
export function opt({ payload = 1232, version = 0, options = Buffer.alloc(0) } = {}) {
  const fixed = Buffer.alloc(10);
  fixed.writeUInt16BE(TYPES.OPT, 0);
  fixed.writeUInt16BE(payload, 2);
  fixed.writeUInt8(0, 4);
  fixed.writeUInt8(version, 5);
  fixed.writeUInt16BE(0, 6);
  fixed.writeUInt16BE(options.length, 8);
  return Buffer.concat([Buffer.from([0]), fixed, options]);
}

/** A standard query (RD set). */
export function query({ id, name = 'example.com', type = TYPES.SOA, klass = 1, edns = false, flags = 0x0100 }) {
  return Buffer.concat([
    header({ id, flags, ar: edns ? 1 : 0 }),
    encodeName(name),
    typeClass(type, klass),
    edns ? opt() : Buffer.alloc(0),
  ]);
}

/** A response-shaped packet (QR=1) with one A answer: it must never be answered. */
export function responsePacket(rng) {
  const id = rng.int(0, 0xffff);
  const name = rng.pick(NAMES.slice(0, 6));
  const answer = Buffer.concat([
    Buffer.from([0xc0, 0x0c]),
    typeClass(TYPES.A),
    Buffer.from([0, 0, 0x0e, 0x10, 0, 4, 192, 0, 2, rng.int(1, 254)]),
  ]);
  const flags = 0x8000 | rng.pick([0x0000, 0x0400, 0x0580, 0x0183, 0x0100, 0x7800]);
  const withAnswer = rng.chance(0.7);
  return Buffer.concat([
    header({ id, flags, an: withAnswer ? 1 : 0 }),
    encodeName(name),
    typeClass(rng.pick([TYPES.A, TYPES.SOA, TYPES.TXT])),
    withAnswer ? answer : Buffer.alloc(0),
  ]);
}

/**
 * A packet whose names follow a chain of `chain` compression pointers, asked `questions` times
 * (each question a pointer to the end of the chain): the work to decode it grows as their product.
 */
export function pointerChain({ size, chain }) {
  const out = Buffer.alloc(size);
  out.writeUInt16BE(0x4b4e, 0);
  out.writeUInt16BE(0x0100, 2);
  let at = 12;
  out[at] = 0;
  let previous = at;
  at += 1;
  for (let link = 0; link < chain && at + 2 <= Math.min(0x3fff, size - 6); link += 1) {
    out.writeUInt16BE(0xc000 | previous, at);
    previous = at;
    at += 2;
  }
  let questions = 0;
  while (at + 6 <= size && questions < 0xffff) {
    out.writeUInt16BE(0xc000 | previous, at);
    out.writeUInt16BE(TYPES.A, at + 2);
    out.writeUInt16BE(1, at + 4);
    at += 6;
    questions += 1;
  }
  out.writeUInt16BE(questions, 4);
  return out.subarray(0, at);
}

function validQuery(rng) {
  const type = rng.pick([TYPES.A, TYPES.AAAA, TYPES.SOA, TYPES.CAA, TYPES.TXT, TYPES.MX, TYPES.NS, TYPES.CNAME]);
  return query({ id: rng.int(0, 0xffff), name: rng.pick(NAMES), type, edns: rng.chance(0.3) });
}

/** The fuzz families: [{family, weight, make(rng) -> Buffer}]. None is larger than 4 KB (see heavyPackets). */
export const DNS_FAMILIES = [
  {
    family: 'random-bytes',
    weight: 3,
    make: (rng) => rng.bytes(rng.pick([0, 1, 2, 11, 12, 13, rng.int(14, 64), rng.int(64, 600), rng.int(600, 4096)])),
  },
  {
    family: 'bit-flipped',
    weight: 4,
    make: (rng) => {
      const packet = validQuery(rng);
      for (let flips = rng.int(1, 8); flips > 0; flips -= 1) {
        const bit = rng.int(0, packet.length * 8 - 1);
        packet[bit >> 3] ^= 1 << (bit & 7);
      }
      return packet;
    },
  },
  {
    family: 'truncated',
    weight: 2,
    make: (rng) => {
      const packet = validQuery(rng);
      return packet.subarray(0, rng.int(0, packet.length - 1));
    },
  },
  { family: 'qr-set', weight: 1, make: (rng) => responsePacket(rng) },
  {
    family: 'pointer-loops',
    weight: 2,
    make: (rng) => {
      const head = header({ id: rng.int(0, 0xffff), qd: rng.int(1, 3) });
      const shapes = [
        Buffer.from([0xc0, 0x0c, 0, 1, 0, 1]), // points at itself
        Buffer.from([0xc0, 0x0e, 0xc0, 0x0c, 0, 1, 0, 1]), // two pointers at each other
        Buffer.from([1, 0x61, 0xc0, 0x0c, 0, 1, 0, 1]), // a label then back to itself
        Buffer.from([0xc0, 0xff, 0, 1, 0, 1]), // beyond the end
        Buffer.from([0xc0, 0x02, 0, 1, 0, 1]), // into the header
        Buffer.from([0xff, 0xff, 0, 1, 0, 1]), // 0xffff
        Buffer.from([0x40, 0x61, 0, 0, 1, 0, 1]), // reserved label type 01
        Buffer.from([0x80, 0x61, 0, 0, 1, 0, 1]), // reserved label type 10
      ];
      return Buffer.concat([head, rng.pick(shapes)]);
    },
  },
  {
    family: 'pointer-chains',
    weight: 1,
    make: (rng) => pointerChain({ size: rng.int(200, 4096), chain: rng.int(10, 600) }),
  },
  {
    family: 'odd-fields',
    weight: 3,
    make: (rng) => {
      const id = rng.int(0, 0xffff);
      const variants = [
        () => query({ id, flags: 0x0100 | (rng.int(1, 15) << 11) }), // opcodes other than QUERY
        () => query({ id, klass: rng.pick([3, 4, 254, 255, 0, 0xffff]) }), // CH, HS, NONE, ANY
        () => query({ id, type: rng.pick([TYPES.ANY, TYPES.AXFR, 251, 0, 0xffff, 12, 33, 99]) }),
        () => query({ id, flags: 0x0100 | rng.pick([0x0200, 0x0040, 0x000f, 0x0400, 0x0080]) }), // TC, Z, RCODE, AA, RA in a query
        () =>
          Buffer.concat([
            header({ id, ar: 1 }),
            encodeName('example.com'),
            typeClass(TYPES.A),
            opt({
              payload: rng.pick([0, 1, 511, 65535]),
              version: rng.pick([0, 1, 255]),
              options: rng.bytes(rng.int(0, 40)),
            }),
          ]),
        () => Buffer.concat([header({ id, ar: 2 }), encodeName('example.com'), typeClass(TYPES.A), opt(), opt()]), // two OPT records
        () =>
          Buffer.concat([
            header({ id, qd: rng.pick([0, 2, 100, 0xffff]) }),
            encodeName('example.com'),
            typeClass(TYPES.A),
          ]), // counts that lie
        () =>
          Buffer.concat([
            header({ id, an: 0xffff, ns: 0xffff, ar: 0xffff }),
            encodeName('example.com'),
            typeClass(TYPES.A),
          ]),
        () => query({ id, name: `${'a'.repeat(63)}.${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(61)}` }), // 255 octets
        () =>
          Buffer.concat([
            header({ id }),
            Buffer.from([64]),
            Buffer.alloc(64, 0x61),
            Buffer.from([0]),
            typeClass(TYPES.A),
          ]), // label of 64
        () =>
          query({
            id,
            name: rng.pick([
              'ex\u0000mple.com',
              'EXAMPLE.COM',
              'exa mple.com',
              '*.example.com',
              'xn--.com',
              '\u00ff.example.com',
              '..',
            ]),
          }),
      ];
      return rng.pick(variants)();
    },
  },
  { family: 'valid', weight: 1, make: (rng) => validQuery(rng) },
];

/**
 * Packets that cost the most to decode, sent one at a time to measure the stall of each: long
 * pointer chains up to `maxSize` bytes, the most questions a message can claim, maximum-size garbage.
 */
export function heavyPackets(rng, { maxSize }) {
  const sizes = [4096, 16_384, 32_768, 65_507].filter((size) => size <= maxSize);
  const packets = [];
  for (const size of sizes)
    packets.push({ name: `pointer chain, ${size} bytes`, data: pointerChain({ size, chain: 8190 }) });
  const top = sizes.at(-1);
  const roots = Buffer.alloc(top - 12);
  for (let at = 0; at + 5 <= roots.length; at += 5) roots.writeUInt32BE(0x00010001, at + 1);
  packets.push({
    name: `${Math.floor(roots.length / 5)} root questions, ${top} bytes`,
    data: Buffer.concat([header({ id: 7, qd: 0xffff }), roots]),
  });
  packets.push({
    name: `valid query + ${top} bytes of garbage`,
    data: Buffer.concat([query({ id: 8 }), rng.bytes(top - 29)]),
  });
  packets.push({ name: `${top} random bytes`, data: rng.bytes(top) });
  return packets;
}
