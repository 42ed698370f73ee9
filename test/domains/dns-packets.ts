// Hand-built DNS packets for the wire tests: each helper writes the octets RFC 1035 §4.1 describes,
// so a test can put exactly one flaw in an otherwise valid query.

export const u16 = (value: number): Buffer => Buffer.from([(value >> 8) & 0xff, value & 0xff]);

/** A header: id 0x1234, RD set, one question, by default. */
export function header({ id = 0x1234, flags = 0x0100, qd = 1, an = 0, ns = 0, ar = 0 } = {}): Buffer {
  return Buffer.concat([id, flags, qd, an, ns, ar].map(u16));
}

/** A name as uncompressed labels (Latin-1 octets). */
export function name(text: string): Buffer {
  const labels = text.split('.').filter(Boolean);
  return Buffer.concat([
    ...labels.map((label) => Buffer.concat([Buffer.from([label.length]), Buffer.from(label, 'latin1')])),
    Buffer.from([0]),
  ]);
}

export function question(text = 'docs.example.com', type = 1, cls = 1): Buffer {
  return Buffer.concat([name(text), u16(type), u16(cls)]);
}

/** A resource record of class IN and TTL 0 with `owner` given as raw octets. */
export function record(owner: Buffer, type: number, rdata: Buffer): Buffer {
  return Buffer.concat([owner, u16(type), u16(1), Buffer.alloc(4), u16(rdata.length), rdata]);
}

/** An OPT pseudo-record (RFC 6891 §6.1.2). */
export function opt({
  size = 1232,
  version = 0,
  dnssecOk = false,
  rdata = Buffer.alloc(0),
  owner = Buffer.from([0]),
} = {}): Buffer {
  const ttl = Buffer.from([0, version, dnssecOk ? 0x80 : 0, 0]);
  return Buffer.concat([owner, u16(41), u16(size), ttl, u16(rdata.length), rdata]);
}

/** A whole query for `text`/`type`, optionally with EDNS. */
export function query(
  text: string,
  type: number,
  { id = 0x1234, edns }: { id?: number; edns?: Parameters<typeof opt>[0] } = {},
): Buffer {
  const parts = [header({ id, ar: edns ? 1 : 0 }), question(text, type)];
  if (edns) parts.push(opt(edns));
  return Buffer.concat(parts);
}
