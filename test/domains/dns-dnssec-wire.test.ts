import { createSocket } from 'node:dgram';
import dnsPacket from 'dns-packet';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDnsServer, type DnsServerHandle } from '../../src/domains/live/dns-server.js';
import { dnskeyRecords, dsRecords, keyTag } from '../../src/domains/sim/dnssec.js';
import type { DnskeyData, DnsLookup, LookupOptions } from '../../src/domains/sim/dns-types.js';

// What the DNS server says of a validating resolver's verdict (RFC 4035, RFC 6840 §5.7, RFC 8914):
// AD only to a client that asked with DO or AD, EDE 9 on a bogus SERVFAIL, CD passed to the lookup,
// and DS / DNSKEY records on the wire as dig reads them.

const asked: LookupOptions[] = [];
const lookup: DnsLookup = (name, type, options = {}) => {
  asked.push(options);
  if (name === 'bogus.example.com')
    return options.checkingDisabled
      ? {
          rcode: 'NOERROR',
          answers: [{ name, type: 'A', ttl: 60, data: '192.0.2.7' }],
          authority: [],
          security: 'bogus',
          bogus: 'DNSKEY Missing',
        }
      : { rcode: 'SERVFAIL', answers: [], authority: [], security: 'bogus', bogus: 'DNSKEY Missing' };
  if (type === 'DNSKEY')
    return { rcode: 'NOERROR', answers: dnskeyRecords(name, 'signed'), authority: [], security: 'secure' };
  if (type === 'DS') return { rcode: 'NOERROR', answers: dsRecords(name, 'signed'), authority: [], security: 'secure' };
  const security = name === 'secure.example.com' ? 'secure' : 'insecure';
  return { rcode: 'NOERROR', answers: [{ name, type: 'A', ttl: 60, data: '192.0.2.1' }], authority: [], security };
};

let server: DnsServerHandle;
beforeAll(async () => {
  server = await startDnsServer(lookup);
});
afterAll(() => server.close());

/** Sends one query (flags and EDNS as given) over UDP and decodes the answer. */
function ask(
  name: string,
  type: 'A' | 'DS' | 'DNSKEY',
  { flags = 0, dnssecOk, edns = dnssecOk !== undefined }: { flags?: number; dnssecOk?: boolean; edns?: boolean } = {},
): Promise<dnsPacket.Packet> {
  const message = dnsPacket.encode({
    type: 'query',
    id: 7,
    flags: dnsPacket.RECURSION_DESIRED | flags,
    questions: [{ name, type }],
    additionals: edns
      ? [
          {
            type: 'OPT',
            name: '.',
            udpPayloadSize: 1232,
            flags: dnssecOk ? dnsPacket.DNSSEC_OK : 0,
          } as dnsPacket.OptAnswer,
        ]
      : [],
  });
  const socket = createSocket('udp4');
  return new Promise<dnsPacket.Packet>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('no answer')), 2000);
    socket.on('message', (data) => {
      clearTimeout(timer);
      resolve(dnsPacket.decode(data));
    });
    socket.send(message, server.port, '127.0.0.1');
  }).finally(() => socket.close());
}

const rcode = (packet: dnsPacket.Packet) => (packet as dnsPacket.Packet & { rcode: string }).rcode;
const ad = (packet: dnsPacket.Packet) => ((packet.flags ?? 0) & dnsPacket.AUTHENTIC_DATA) !== 0;

describe('AD (RFC 4035 §3.2.3, RFC 6840 §5.7)', () => {
  it.each([
    ['neither DO nor AD', {}, false],
    ['DO', { dnssecOk: true }, true],
    ['AD in the query', { flags: dnsPacket.AUTHENTIC_DATA }, true],
  ])('a secure answer to a query with %s: AD=%s', async (_what, options, expected) => {
    const answer = await ask('secure.example.com', 'A', options);
    expect(rcode(answer)).toBe('NOERROR');
    expect(ad(answer)).toBe(expected);
  });

  it('an insecure answer never has AD', async () => {
    expect(ad(await ask('plain.example.com', 'A', { dnssecOk: true, flags: dnsPacket.AUTHENTIC_DATA }))).toBe(false);
  });
});

describe('a bogus answer', () => {
  it('is SERVFAIL with Extended DNS Error 9 (DNSKEY Missing) when the query has EDNS', async () => {
    const answer = await ask('bogus.example.com', 'A', { dnssecOk: false });
    expect(rcode(answer)).toBe('SERVFAIL');
    const opt = answer.additionals!.find((record) => record.type === 'OPT') as dnsPacket.OptAnswer;
    const ede = opt.options.find((option) => (option as { code: number }).code === 15) as unknown as { data: Buffer };
    expect(ede.data.readUInt16BE(0)).toBe(9);
    expect(ede.data.subarray(2).toString('utf8')).toContain('DNSKEY Missing');
  });

  it('CD reaches the lookup, which then answers; the answer has CD and no AD', async () => {
    asked.length = 0;
    const answer = await ask('bogus.example.com', 'A', { flags: dnsPacket.CHECKING_DISABLED, dnssecOk: true });
    expect(asked).toEqual([{ checkingDisabled: true }]);
    expect(rcode(answer)).toBe('NOERROR');
    expect(((answer.flags ?? 0) & dnsPacket.CHECKING_DISABLED) !== 0).toBe(true);
    expect(ad(answer)).toBe(false);
  });
});

describe('DS and DNSKEY on the wire (RFC 4034 §2, §5)', () => {
  it('carry the key, its tag and the digest the simulator holds', async () => {
    const keys = await ask('example.com', 'DNSKEY');
    const key = keys.answers![0] as dnsPacket.DnskeyAnswer;
    const expected = dnskeyRecords('example.com', 'signed')[0]!.data as DnskeyData;
    expect(key.data).toMatchObject({ flags: 257, algorithm: 13 });
    expect(key.data.key.toString('base64')).toBe(expected.key);
    const ds = (await ask('example.com', 'DS')).answers![0] as dnsPacket.DSAnswer;
    expect(ds.data).toMatchObject({ keyTag: keyTag(expected), algorithm: 13, digestType: 2 });
    expect(ds.data.digest).toHaveLength(32);
  });
});
