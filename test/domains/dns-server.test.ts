// kennel's DNS server over real UDP and TCP, asked by Node's dns.Resolver, dns2 and raw packets, on
// the example.com zone of dns-zone.ts.
import { createSocket } from 'node:dgram';
import { Resolver } from 'node:dns/promises';
import { Packet, TCPClient, UDPClient, type Resource } from 'dns2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DnsBindError, startDnsServer, type DnsServerHandle } from '../../src/domains/live/dns-server.js';
import { query as wireQuery } from './dns-packets.js';
import type { QueryType } from '../../src/domains/sim/dns-types.js';
import { BIG_TXT, fixtureLookup, LONG_TXT } from './dns-zone.js';

const seen: Array<[string, QueryType]> = [];
const errors: unknown[] = [];
let server: DnsServerHandle;
let resolver: Resolver;

beforeAll(async () => {
  server = await startDnsServer(
    (name, type) => {
      seen.push([name, type]);
      return fixtureLookup(name, type);
    },
    { role: 'authoritative', onError: (error) => errors.push(error) },
  );
  resolver = new Resolver({ timeout: 1000, tries: 1 });
  resolver.setServers([`${server.host}:${server.port}`]);
});

afterAll(() => server.close());

describe('answers Node dns.Resolver over UDP', () => {
  it('binds loopback on a free port', () => {
    expect(server.host).toBe('127.0.0.1');
    expect(server.port).toBeGreaterThan(0);
  });

  it('answers A and AAAA with their TTLs', async () => {
    expect(await resolver.resolve4('docs.example.com', { ttl: true })).toEqual([{ address: '192.0.2.10', ttl: 60 }]);
    expect(await resolver.resolve6('docs.example.com')).toEqual(['2001:db8::10']);
  });

  it('answers a CNAME chain for A and the CNAME itself for CNAME', async () => {
    expect(await resolver.resolve4('www.example.com')).toEqual(['192.0.2.10']);
    expect(await resolver.resolveCname('www.example.com')).toEqual(['docs.example.com']);
  });

  it('answers CAA with flags, issue, issuewild and iodef', async () => {
    // Node 24 adds `type` to each CAA and MX record, hence toMatchObject.
    expect(await resolver.resolveCaa('example.com')).toMatchObject([
      { critical: 0, issue: 'letsencrypt.org' },
      { critical: 0, issuewild: ';' },
      { critical: 0, iodef: 'mailto:security@example.com' },
    ]);
    expect(await resolver.resolveCaa('critical.example.com')).toMatchObject([{ critical: 128, tbs: 'unknown' }]);
  });

  it('answers TXT, splitting text longer than 255 octets into character-strings', async () => {
    expect(await resolver.resolveTxt('example.com')).toEqual([['v=spf1 -all']]);
    const [strings] = await resolver.resolveTxt('_kennel.docs.example.com');
    expect(strings!.map((s) => s.length)).toEqual([255, LONG_TXT.length - 255]);
    expect(strings!.join('')).toBe(LONG_TXT);
  });

  it('answers MX, NS and SOA', async () => {
    expect(await resolver.resolveMx('example.com')).toMatchObject([{ priority: 10, exchange: 'mail.example.com' }]);
    expect(await resolver.resolveNs('example.com')).toEqual(['ns1.example.com']);
    expect(await resolver.resolveSoa('example.com')).toEqual({
      nsname: 'ns1.example.com',
      hostmaster: 'hostmaster.example.com',
      serial: 2025010101,
      refresh: 3600,
      retry: 600,
      expire: 604800,
      minttl: 300,
    });
  });

  it('asks the lookup with a lower-case name without the trailing dot', async () => {
    expect(await resolver.resolve4('DOCS.Example.COM.')).toEqual(['192.0.2.10']);
    expect(seen).toContainEqual(['docs.example.com', 'A']);
    expect(seen.some(([name]) => name !== name.toLowerCase() || name.endsWith('.'))).toBe(false);
  });

  it.each([
    { what: 'NXDOMAIN', name: 'nope.example.com', code: 'ENOTFOUND' },
    { what: 'NODATA', name: 'docs.example.com', type: 'MX', code: 'ENODATA' },
    { what: 'SERVFAIL', name: 'broken.example.com', code: 'ESERVFAIL' },
  ])('rejects $what with $code', async ({ name, type, code }) => {
    const query = type === 'MX' ? resolver.resolveMx(name) : resolver.resolve4(name);
    await expect(query).rejects.toMatchObject({ code });
  });

  it('answers a data type no zone holds with NODATA (NOERROR, no answer, the SOA), as real servers do', async () => {
    await expect(resolver.resolveSrv('_sip._tcp.docs.example.com')).rejects.toMatchObject({ code: 'ENOTFOUND' });
    await expect(resolver.resolveSrv('docs.example.com')).rejects.toMatchObject({ code: 'ENODATA' });
  });

  // RFC 1035 §4.3.2 and RFC 3597 §3: a type a server holds no record of, known or not, is NODATA, never
  // NOTIMP; browsers send HTTPS (65) queries with every A/AAAA. Meta types stay NOTIMP.
  it.each([
    ['HTTPS', 65],
    ['SVCB', 64],
    ['DS', 43],
    ['DNSKEY', 48],
    ['PTR', 12],
    ['unassigned TYPE65280', 65280],
  ])('answers %s at an existing name with NODATA and the zone SOA', async (_name, type) => {
    const response = await rawUdp(wireQuery('docs.example.com', type));
    expect(response.header.rcode).toBe(Packet.RCODE.NOERROR);
    expect(response.answers).toHaveLength(0);
    expect(response.authorities.map((record) => record.type)).toEqual([Packet.TYPE.SOA]);
    const missing = await rawUdp(wireQuery('nope.example.com', type));
    expect(missing.header.rcode).toBe(Packet.RCODE.NXDOMAIN);
  });

  it('follows a CNAME for a type no zone holds, ending in NODATA', async () => {
    const response = await rawUdp(wireQuery('www.example.com', 65));
    expect(response.header.rcode).toBe(Packet.RCODE.NOERROR);
    expect(response.answers.map((record) => record.type)).toEqual([Packet.TYPE.CNAME]);
  });

  it.each([
    ['ANY', 255],
    ['AXFR', 252],
    ['IXFR', 251],
  ])('answers the meta type %s with NOTIMP', async (_name, type) => {
    expect((await rawUdp(wireQuery('docs.example.com', type))).header.rcode).toBe(Packet.RCODE.NOTIMP);
  });

  it('answers SERVFAIL when the lookup throws or a record cannot be encoded, and keeps serving', async () => {
    await expect(resolver.resolve4('throws.example.com')).rejects.toMatchObject({ code: 'ESERVFAIL' });
    await expect(resolver.resolve4('bad-address.example.com')).rejects.toMatchObject({ code: 'ESERVFAIL' });
    expect(errors.map((error) => (error as Error).message)).toEqual([
      'lookup exploded',
      expect.stringMatching(/invalid address "not-an-address"/),
    ]);
    expect(await resolver.resolve4('docs.example.com')).toEqual(['192.0.2.10']);
  });

  it('sets TC on a UDP answer too big to fit, and Node retries over TCP on the same port', async () => {
    const truncated = await UDPClient({ dns: server.host, port: server.port, retryOverTCP: false })(
      'big.example.com',
      'TXT',
    );
    expect(truncated.header.tc).toBe(1);
    expect(truncated.answers).toEqual([]);
    const strings = (await resolver.resolveTxt('big.example.com')).map((chunks) => chunks.join(''));
    expect(strings.sort()).toEqual([...BIG_TXT].sort());
  });
});

describe('raw responses', () => {
  const udp = (name: string, type: string): Promise<Packet> =>
    UDPClient({ dns: '127.0.0.1', port: server.port })(name, type);
  const tcp = (name: string, type: string): Promise<Packet> =>
    TCPClient({ dns: '127.0.0.1', port: server.port })(name, type);

  it.each([
    { what: 'NXDOMAIN', name: 'nope.example.com', rcode: Packet.RCODE.NXDOMAIN },
    { what: 'NODATA', name: 'www.example.com', rcode: Packet.RCODE.NOERROR },
  ])('carry the zone SOA in the authority section of $what, its TTL the negative TTL', async ({ name, rcode }) => {
    const response = await udp(name, 'MX');
    expect(response.header).toMatchObject({ qr: 1, aa: 1, ra: 0, rcode });
    expect(response.authorities).toHaveLength(1);
    // The lookup gave the SOA with TTL 3600: RFC 2308 §3 sends min(3600, MINIMUM 300).
    expect(response.authorities[0]).toMatchObject({
      name: 'example.com',
      type: Packet.TYPE.SOA,
      ttl: 300,
      primary: 'ns1.example.com',
      admin: 'hostmaster.example.com',
      serial: 2025010101,
      minimum: 300,
    });
  });

  it('answer a CNAME chain before the records', async () => {
    const response = await udp('www.example.com', 'AAAA');
    expect(response.answers.map(summary)).toEqual([
      'www.example.com CNAME docs.example.com',
      'docs.example.com AAAA 2001:db8::10',
    ]);
  });

  const QUESTIONS: Array<[string, string, string[]]> = [
    ['docs.example.com', 'A', ['docs.example.com A 192.0.2.10']],
    ['docs.example.com', 'AAAA', ['docs.example.com AAAA 2001:db8::10']],
    ['www.example.com', 'CNAME', ['www.example.com CNAME docs.example.com']],
    ['www.example.com', 'A', ['www.example.com CNAME docs.example.com', 'docs.example.com A 192.0.2.10']],
    ['critical.example.com', 'CAA', ['critical.example.com CAA 128 tbs "unknown"']],
    ['example.com', 'TXT', ['example.com TXT v=spf1 -all']],
    ['example.com', 'MX', ['example.com MX 10 mail.example.com']],
    ['example.com', 'NS', ['example.com NS ns1.example.com']],
    ['example.com', 'SOA', ['example.com SOA ns1.example.com hostmaster.example.com 2025010101 3600 600 604800 300']],
  ];

  it.each(QUESTIONS)('are the same over UDP and TCP for %s %s', async (name, type, expected) => {
    const [overUdp, overTcp] = await Promise.all([udp(name, type), tcp(name, type)]);
    expect(overUdp.answers.map(summary)).toEqual(expected);
    expect(overTcp.answers.map(summary)).toEqual(expected);
    expect(overTcp.header.rcode).toBe(Packet.RCODE.NOERROR);
  });

  it('answer NXDOMAIN and SERVFAIL over TCP too', async () => {
    const [nx, fail] = await Promise.all([tcp('nope.example.com', 'A'), tcp('broken.example.com', 'A')]);
    expect(nx.header.rcode).toBe(Packet.RCODE.NXDOMAIN);
    expect(nx.authorities.map(summary)).toEqual([expect.stringMatching(/^example\.com SOA ns1\.example\.com /)]);
    expect(fail.header.rcode).toBe(Packet.RCODE.SERVFAIL);
  });

  it('answer the whole big TXT set over TCP', async () => {
    const response = await tcp('big.example.com', 'TXT');
    expect(response.header.tc).toBe(0);
    expect(response.answers).toHaveLength(BIG_TXT.length);
  });

  it('echo EDNS and answer FORMERR to a query with two questions (hand-built, over node:dgram)', async () => {
    const query = new Packet();
    query.header.id = 4242;
    query.questions.push(new Packet.Question('docs.example.com', Packet.TYPE.A, Packet.CLASS.IN));
    query.additionals.push(Packet.Resource.EDNS([]));
    const edns = await rawUdp(query.toBuffer());
    expect(edns.header.id).toBe(4242);
    expect(edns.additionals.map((r) => r.type)).toEqual([Packet.TYPE.EDNS]);
    query.questions.push(new Packet.Question('www.example.com', Packet.TYPE.A, Packet.CLASS.IN));
    const formerr = await rawUdp(query.toBuffer());
    expect(formerr.header.rcode).toBe(Packet.RCODE.FORMERR);
  });

  it.each([
    { what: 'no EDNS (512)', edns: undefined, tc: 1 },
    { what: 'an EDNS size of 600', edns: { size: 600 }, tc: 1 },
    { what: 'an EDNS size of 1232', edns: { size: 1232 }, tc: 0 },
    { what: 'an EDNS size below 512 (read as 512)', edns: { size: 100 }, tc: 1 },
  ])('fit a UDP answer to the client’s size with $what', async ({ edns, tc }) => {
    const response = await rawUdp(wireQuery('mid.example.com', Packet.TYPE.TXT, { edns }));
    expect(response.header.tc).toBe(tc);
    expect(response.answers).toHaveLength(tc ? 0 : 1);
  });

  it('send at most 1232 octets over UDP whatever the client offers, keeping the OPT record with TC=1 (RFC 6891 §7)', async () => {
    const socket = createSocket('udp4');
    const data = await new Promise<Buffer>((resolve) => {
      socket.on('message', resolve);
      socket.send(wireQuery('big.example.com', Packet.TYPE.TXT, { edns: { size: 4096 } }), server.port, '127.0.0.1');
    }).finally(() => socket.close());
    expect(data.length).toBeLessThanOrEqual(1232);
    const response = Packet.parse(data);
    expect(response.header).toMatchObject({ tc: 1, qdcount: 1, ancount: 0 });
    expect(response.additionals).toMatchObject([{ type: Packet.TYPE.EDNS, class: 1232 }]);
  });

  it('answer EDNS version 1 with BADVERS and an OPT of version 0 (RFC 6891 §6.1.3)', async () => {
    const response = await rawUdp(wireQuery('docs.example.com', Packet.TYPE.A, { edns: { version: 1 } }));
    expect(response.header.rcode).toBe(Packet.RCODE.BADVERS);
    expect(response.additionals).toMatchObject([{ type: Packet.TYPE.EDNS, version: 0 }]);
    expect(response.answers).toEqual([]);
  });

  it('answer opcodes other than QUERY with NOTIMP', async () => {
    const notify = wireQuery('example.com', Packet.TYPE.SOA);
    notify[2] = 4 << 3;
    expect((await rawUdp(notify)).header).toMatchObject({ opcode: 4, rcode: Packet.RCODE.NOTIMP });
  });

  it('echo the question exactly as asked, mixed case included (clients randomise it, draft-vixie-dnsext-dns0x20)', async () => {
    const response = await rawUdp(wireQuery('DoCs.ExAmPlE.cOm', Packet.TYPE.A));
    expect(response.questions).toMatchObject([{ name: 'DoCs.ExAmPlE.cOm' }]);
    expect(response.answers.map(summary)).toEqual(['DoCs.ExAmPlE.cOm A 192.0.2.10']);
  });

  it('survive garbage', async () => {
    await rawUdp(Buffer.from('not dns'), 100).catch(() => undefined);
    expect((await udp('docs.example.com', 'A')).answers.map(summary)).toEqual(['docs.example.com A 192.0.2.10']);
  });
});

describe('binding', () => {
  it('refuses a port that is taken with a DnsBindError (a ToolError)', async () => {
    const attempt = startDnsServer(fixtureLookup, { port: server.port });
    await expect(attempt).rejects.toThrow(DnsBindError);
    await expect(attempt).rejects.toThrow(`DNS UDP port ${server.port} on 127.0.0.1 is already in use`);
  });

  it('uses an explicit free port for both transports and closes promptly with a TCP connection open', async () => {
    const probe = await startDnsServer(fixtureLookup);
    const port = probe.port;
    await probe.close();
    const again = await startDnsServer(fixtureLookup, { port });
    expect(again.port).toBe(port);
    expect((await TCPClient({ dns: '127.0.0.1', port })('docs.example.com', 'A')).answers).toHaveLength(1);
    const started = performance.now();
    await again.close();
    await again.close();
    expect(performance.now() - started).toBeLessThan(1000);
  });
});

function summary(record: Resource): string {
  const head = `${record.name} ${Packet.typeName(record.type)}`;
  switch (record.type) {
    case Packet.TYPE.A:
    case Packet.TYPE.AAAA:
      return `${head} ${record.address}`;
    case Packet.TYPE.CNAME:
      return `${head} ${record.domain}`;
    case Packet.TYPE.NS:
      return `${head} ${record.ns}`;
    case Packet.TYPE.TXT:
      return `${head} ${([] as string[]).concat(record.data as string | string[]).join('')}`;
    case Packet.TYPE.MX:
      return `${head} ${record.priority} ${record.exchange}`;
    case Packet.TYPE.CAA:
      return `${head} ${record.flags} ${record.tag} "${record.value}"`;
    case Packet.TYPE.SOA:
      return `${head} ${record.primary} ${record.admin} ${record.serial} ${record.refresh} ${record.retry} ${record.expiration} ${record.minimum}`;
    default:
      return `${head} ?`;
  }
}

function rawUdp(message: Buffer, timeoutMs = 1000): Promise<Packet> {
  const socket = createSocket('udp4');
  return new Promise<Packet>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('no answer')), timeoutMs);
    socket.on('message', (data) => {
      clearTimeout(timer);
      resolve(Packet.parse(data));
    });
    socket.send(message, server.port, '127.0.0.1');
  }).finally(() => socket.close());
}
