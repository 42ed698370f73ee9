// How kennel's DNS server writes an answer (src/domains/live/dns-message.ts), decoded by dns2, an
// independent decoder, and the address records it writes.
import { isIPv4, isIPv6 } from 'node:net';
import { Packet } from 'dns2';
import { describe, expect, it } from 'vitest';
import { DnsEncodeError, encodeResponse, ipv4Bytes, ipv6Bytes } from '../../src/domains/live/dns-message.js';
import type { ResourceRecord } from '../../src/domains/sim/dns-types.js';
import { screenQuery, type Query } from '../../src/domains/live/dns-wire.js';
import { header, name, opt, question } from './dns-packets.js';

const plain = Buffer.concat([header(), question()]);

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
