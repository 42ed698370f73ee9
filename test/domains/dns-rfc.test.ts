// DNS on the wire as the real internet has it: negative answers carry the SOA with the negative TTL
// (RFC 2308 §3), resolution failures are cached briefly (RFC 9520), and the header says who answers
// (an authoritative server: AA=1 RA=0; a recursive resolver: AA=0 RA=1, RD copied).
import { createSocket } from 'node:dgram';
import { Packet, TCPClient, UDPClient } from 'dns2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CachingResolver,
  cacheSeconds,
  DEFAULT_SERVFAIL_SECONDS,
  MAX_SERVFAIL_SECONDS,
} from '../../src/domains/sim/caching-resolver.js';
import { DnsZones } from '../../src/domains/sim/dns-zones.js';
import { startDnsServer, type DnsServerHandle } from '../../src/domains/live/dns-server.js';
import { header, question } from './dns-packets.js';
import { FLEX_PROVIDER } from './resolution.case.js';

const provider = FLEX_PROVIDER;

function world(): DnsZones {
  const dns = new DnsZones();
  dns.addZone('example.com', provider);
  dns.addRecord({ name: 'docs.example.com', type: 'A', data: '192.0.2.7', ttl: 600, published: true }, 0);
  dns.addZone('broken.test', provider);
  return dns;
}

describe('negative answers (RFC 2308 §3)', () => {
  it.each([
    ['NXDOMAIN', 'nope.example.com', 'A'],
    ['NODATA', 'docs.example.com', 'MX'],
  ] as const)('%s carries the SOA with TTL min(SOA TTL, MINIMUM)', (rcode, name, type) => {
    const answer = world().authoritative(name, type, 0);
    expect(answer.rcode).toBe(rcode === 'NODATA' ? 'NOERROR' : rcode);
    expect(answer.authority).toMatchObject([{ name: 'example.com', type: 'SOA', ttl: 300 }]);
    expect(answer.authority[0]!.data).toMatchObject({ minimum: 300 });
  });

  it('keeps the full SOA TTL when the SOA itself is asked for', () => {
    expect(world().authoritative('example.com', 'SOA', 0).answers).toMatchObject([{ type: 'SOA', ttl: 3600 }]);
  });

  it('gives names outside every zone the registry SOA with the smaller of its TTL and MINIMUM', () => {
    const answer = world().authoritative('nope.invalid-tld-kennel', 'A', 0);
    expect(answer.rcode).toBe('NXDOMAIN');
    expect(answer.authority).toMatchObject([{ type: 'SOA', ttl: 900 }]);
  });

  it('is cached for that long and no longer, its TTL counting down', () => {
    const resolver = new CachingResolver('r', world());
    expect(resolver.lookup('nope.example.com', 'A', 0)).toMatchObject({ fromCache: false, expiresAt: 300_000 });
    const cached = resolver.lookup('nope.example.com', 'A', 100_000);
    expect(cached).toMatchObject({ fromCache: true, rcode: 'NXDOMAIN' });
    expect(cached.authority[0]!.ttl).toBe(200);
    expect(resolver.lookup('nope.example.com', 'A', 300_000).fromCache).toBe(false);
  });
});

describe('resolution failures (RFC 9520)', () => {
  function failing(): DnsZones {
    const dns = world();
    dns.setFailing('broken.test', ['*']);
    return dns;
  }

  it(`caches SERVFAIL for ${DEFAULT_SERVFAIL_SECONDS} s by default, on the virtual clock`, () => {
    const dns = failing();
    const resolver = new CachingResolver('r', dns);
    expect(resolver.lookup('broken.test', 'A', 0)).toMatchObject({ rcode: 'SERVFAIL', fromCache: false });
    dns.setFailing('broken.test', []);
    expect(resolver.lookup('broken.test', 'A', 1_000)).toMatchObject({ rcode: 'SERVFAIL', fromCache: true });
    expect(resolver.lookup('broken.test', 'A', DEFAULT_SERVFAIL_SECONDS * 1000 - 1)).toMatchObject({
      rcode: 'SERVFAIL',
      fromCache: true,
    });
    expect(resolver.lookup('broken.test', 'A', DEFAULT_SERVFAIL_SECONDS * 1000)).toMatchObject({
      rcode: 'NOERROR',
      fromCache: false,
    });
  });

  it('takes another failure lifetime from 1 s to 5 minutes', () => {
    const dns = failing();
    const resolver = new CachingResolver('r', dns, { servfailSeconds: 1 });
    resolver.lookup('broken.test', 'A', 0);
    dns.setFailing('broken.test', []);
    expect(resolver.lookup('broken.test', 'A', 999).rcode).toBe('SERVFAIL');
    expect(resolver.lookup('broken.test', 'A', 1_000).rcode).toBe('NOERROR');
    expect(cacheSeconds({ rcode: 'SERVFAIL', answers: [], authority: [] }, 120)).toBe(120);
  });

  it.each([0, 0.5, MAX_SERVFAIL_SECONDS + 1, Number.NaN])('refuses a failure lifetime of %s s', (seconds) => {
    expect(() => new CachingResolver('r', world(), { servfailSeconds: seconds })).toThrow(
      expect.objectContaining({ code: 'invalid_servfail_ttl' }),
    );
  });
});

/** Resolver-backed server over `dns` at a clock the test moves. */
async function resolverServer(dns: DnsZones, clock: { now: number }, role?: 'authoritative' | 'recursive') {
  const resolver = new CachingResolver('wire', dns);
  return startDnsServer((name, type) => resolver.lookup(name, type, clock.now), role ? { role } : {});
}

/** Sends raw octets over UDP and resolves with the first answer. */
function rawUdp(port: number, message: Buffer): Promise<Buffer> {
  const socket = createSocket('udp4');
  return new Promise<Buffer>((resolve, reject) => {
    socket.once('message', (reply) => resolve(reply));
    socket.once('error', reject);
    socket.send(message, port, '127.0.0.1');
  }).finally(() => socket.close());
}

describe('over the real DNS server', () => {
  const clock = { now: 0 };
  const dns = world();
  let recursive: DnsServerHandle;
  let authoritative: DnsServerHandle;

  beforeAll(async () => {
    recursive = await resolverServer(dns, clock);
    authoritative = await startDnsServer((name, type) => dns.authoritative(name, type, clock.now), {
      role: 'authoritative',
    });
  });
  afterAll(() => Promise.all([recursive.close(), authoritative.close()]));

  const udp = (server: DnsServerHandle, name: string, type: string): Promise<Packet> =>
    UDPClient({ dns: '127.0.0.1', port: server.port })(name, type);
  const tcp = (server: DnsServerHandle, name: string, type: string): Promise<Packet> =>
    TCPClient({ dns: '127.0.0.1', port: server.port })(name, type);

  it('a negative answer carries the SOA with the negative TTL, counting down from cache', async () => {
    clock.now = 1_000_000;
    const first = await udp(recursive, 'gone.example.com', 'A');
    expect(first.header.rcode).toBe(Packet.RCODE.NXDOMAIN);
    expect(first.authorities).toMatchObject([{ name: 'example.com', type: Packet.TYPE.SOA, ttl: 300, minimum: 300 }]);
    clock.now += 60_000;
    expect((await tcp(recursive, 'gone.example.com', 'A')).authorities).toMatchObject([{ ttl: 240 }]);
  });

  it('a resolution failure is answered from cache until its lifetime ends', async () => {
    clock.now = 2_000_000;
    dns.setFailing('broken.test', ['*']);
    expect((await udp(recursive, 'www.broken.test', 'A')).header.rcode).toBe(Packet.RCODE.SERVFAIL);
    dns.setFailing('broken.test', []);
    clock.now += 10_000;
    expect((await udp(recursive, 'www.broken.test', 'A')).header.rcode).toBe(Packet.RCODE.SERVFAIL);
    clock.now += DEFAULT_SERVFAIL_SECONDS * 1000;
    expect((await udp(recursive, 'www.broken.test', 'A')).header.rcode).toBe(Packet.RCODE.NXDOMAIN);
  });

  it('a recursive resolver answers with AA=0, RA=1 and the RD the query had', async () => {
    for (const ask of [udp, tcp]) {
      const response = await ask(recursive, 'docs.example.com', 'A');
      expect(response.header).toMatchObject({ qr: 1, aa: 0, ra: 1, rd: 1, rcode: Packet.RCODE.NOERROR });
    }
    const noRecursion = await rawUdp(recursive.port, Buffer.concat([header({ flags: 0 }), question()]));
    expect(noRecursion.readUInt16BE(2) & 0x8580).toBe(0x8080); // QR=1, AA=0, RD=0, RA=1
  });

  it('an authoritative server answers with AA=1, RA=0 and the RD the query had', async () => {
    const response = await udp(authoritative, 'docs.example.com', 'A');
    expect(response.header).toMatchObject({ qr: 1, aa: 1, ra: 0, rd: 1 });
    const negative = await udp(authoritative, 'nope.example.com', 'A');
    expect(negative.header).toMatchObject({ aa: 1, ra: 0, rcode: Packet.RCODE.NXDOMAIN });
    const noRecursion = await rawUdp(authoritative.port, Buffer.concat([header({ flags: 0 }), question()]));
    expect(noRecursion.readUInt16BE(2) & 0x8580).toBe(0x8400); // QR=1, AA=1, RD=0, RA=0
  });

  it('errors of the server itself (NOTIMP, FORMERR) never claim authority', async () => {
    const notimp = await rawUdp(authoritative.port, Buffer.concat([header(), question('docs.example.com', 255)]));
    expect(notimp.readUInt16BE(2) & 0x040f).toBe(4); // AA=0, NOTIMP
  });
});
