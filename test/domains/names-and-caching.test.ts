import { describe, expect, it } from 'vitest';
import { apexOf, checkName, labelOf, parentsOf } from '../../src/domains/sim/names.js';
import { CachingResolver, cacheSeconds, DEFAULT_CACHE_ENTRIES } from '../../src/domains/sim/caching-resolver.js';
import { DnsZones } from '../../src/domains/sim/dns-zones.js';
import { parseDuration, formatOffset } from '../../src/core/duration.js';
import type { ProviderProfile } from '../../src/domains/sim/providers.js';

describe('names', () => {
  it.each([
    ['Docs.Example.COM.', 'docs.example.com'],
    ['bücher.example.com', 'xn--bcher-kva.example.com'],
    ['文档.example.com', 'xn--7dvp7d.example.com'],
    ['docs.example.co.uk', 'docs.example.co.uk'],
  ])('normalises %s', (input, name) => {
    expect(checkName(input)).toMatchObject({ ok: true, name });
  });

  it.each([
    ['', 'empty'],
    ['192.0.2.1', 'IP address'],
    ['*.example.com', 'wildcard'],
    ['exa mple.com', 'not a valid domain name'],
    ['-docs.example.com', 'label'],
    [`${'a'.repeat(64)}.example.com`, 'label'],
    ['localhost', 'no parent domain'],
    ['co.uk', 'public suffix'],
    ['gov.uk', 'public suffix'],
  ])('refuses %j (%s)', (input, reason) => {
    const checked = checkName(input);
    expect(checked.ok).toBe(false);
    expect(!checked.ok && checked.reason).toContain(reason);
  });

  it('finds the apex with the Public Suffix List, not the last two labels', () => {
    expect(apexOf('docs.example.co.uk')).toBe('example.co.uk');
    expect(apexOf('a.b.example.com')).toBe('example.com');
    expect(labelOf('a.b.example.com')).toBe('a.b');
    expect(labelOf('example.com')).toBe('@');
    expect(parentsOf('a.b.example.com')).toEqual(['b.example.com', 'example.com', 'com']);
  });
});

describe('durations', () => {
  it.each([
    ['48h', 172_800_000],
    ['1h30m', 5_400_000],
    ['500ms', 500],
    ['2d', 172_800_000],
  ])('%s', (text, ms) => expect(parseDuration(text)).toBe(ms));

  it('rejects what is not a duration, and formats offsets', () => {
    expect(parseDuration('2 days')).toBeUndefined();
    expect(parseDuration('')).toBeUndefined();
    expect(formatOffset(90_061_000)).toBe('T+1d 01:01:01');
  });
});

describe('caching resolver', () => {
  const provider: ProviderProfile = {
    id: 'p',
    name: 'P',
    supportsAlias: false,
    cnameWithOtherData: 'reject',
    publishDelayMs: 60_000,
    negativeTtl: 600,
    defaultTtl: 3600,
    caaQueries: 'answered',
  };

  it('caches NXDOMAIN for min(SOA TTL, SOA MINIMUM), hiding a record published meanwhile (RFC 2308)', () => {
    const world = new DnsZones();
    world.addZone('example.com', provider);
    const resolver = new CachingResolver('r', world);
    const first = resolver.lookup('docs.example.com', 'A', 0);
    expect(first).toMatchObject({ rcode: 'NXDOMAIN', fromCache: false, expiresAt: 600_000 });
    expect(cacheSeconds(first)).toBe(600);
    world.addRecord({ name: 'docs.example.com', type: 'A', data: '192.0.2.7', ttl: 300 }, 0);
    expect(resolver.lookup('docs.example.com', 'A', 120_000)).toMatchObject({ rcode: 'NXDOMAIN', fromCache: true });
    expect(world.authoritative('docs.example.com', 'A', 120_000).rcode).toBe('NOERROR');
    const fresh = resolver.lookup('docs.example.com', 'A', 600_000);
    expect(fresh).toMatchObject({ rcode: 'NOERROR', fromCache: false });
  });

  it('counts TTLs down while serving from cache, and keeps a removed record until it expires', () => {
    const world = new DnsZones();
    world.addZone('example.com', { ...provider, publishDelayMs: 0 });
    world.addRecord({ name: 'docs.example.com', type: 'A', data: '192.0.2.7', ttl: 300 }, 0);
    const resolver = new CachingResolver('r', world);
    resolver.lookup('docs.example.com', 'A', 0);
    world.removeRecords({ name: 'docs.example.com' }, 1000);
    const cached = resolver.lookup('docs.example.com', 'A', 100_000);
    expect(cached.answers).toEqual([{ name: 'docs.example.com', type: 'A', ttl: 200, data: '192.0.2.7' }]);
    expect(resolver.lookup('docs.example.com', 'A', 300_000).rcode).toBe('NXDOMAIN');
  });

  /** A zone whose names answer NXDOMAIN (cached 600 s) except short.example.com (A, TTL 60 s). */
  function boundedWorld(): DnsZones {
    const world = new DnsZones();
    world.addZone('example.com', { ...provider, publishDelayMs: 0 });
    world.addRecord({ name: 'short.example.com', type: 'A', data: '192.0.2.7', ttl: 60 }, 0);
    return world;
  }

  it('keeps at most maxEntries answers, evicting the least recently used first', () => {
    const resolver = new CachingResolver('r', boundedWorld(), { maxEntries: 3 });
    for (const label of ['a', 'b', 'c']) resolver.lookup(`${label}.example.com`, 'A', 0);
    expect(resolver.lookup('a.example.com', 'A', 1000).fromCache).toBe(true);
    resolver.lookup('d.example.com', 'A', 2000);
    expect(resolver.size).toBe(3);
    expect(resolver.entries(2000).map((entry) => entry.name)).toEqual([
      'c.example.com',
      'a.example.com',
      'd.example.com',
    ]);
    expect(resolver.lookup('a.example.com', 'A', 3000).fromCache).toBe(true);
    expect(resolver.lookup('b.example.com', 'A', 3000).fromCache).toBe(false);
  });

  it('sweeps expired answers before evicting live ones', () => {
    const resolver = new CachingResolver('r', boundedWorld(), { maxEntries: 2 });
    resolver.lookup('short.example.com', 'A', 0);
    resolver.lookup('long.example.com', 'A', 0);
    expect(resolver.lookup('short.example.com', 'A', 1000).fromCache).toBe(true);
    // short.example.com (used last, expired at 60 s) goes, not long.example.com (used first, live).
    resolver.lookup('other.example.com', 'A', 120_000);
    expect(resolver.lookup('long.example.com', 'A', 121_000)).toMatchObject({ fromCache: true, rcode: 'NXDOMAIN' });
    expect(resolver.entries(121_000).map((entry) => entry.name)).toEqual(['other.example.com', 'long.example.com']);
  });

  it(`holds at most ${DEFAULT_CACHE_ENTRIES} answers by default, however many names are asked`, () => {
    const resolver = new CachingResolver('r', boundedWorld());
    for (let i = 0; i < 20_000; i++) resolver.lookup(`n${i}.example.com`, 'A', i);
    expect(resolver.size).toBe(DEFAULT_CACHE_ENTRIES);
    expect(resolver.lookup('n19999.example.com', 'A', 20_000).fromCache).toBe(true);
    expect(resolver.lookup('n0.example.com', 'A', 20_000).fromCache).toBe(false);
  });

  it('caches SERVFAIL briefly (RFC 9520), then asks again', () => {
    const world = new DnsZones();
    world.addZone('example.com', provider);
    world.setFailing('example.com', ['*']);
    const resolver = new CachingResolver('r', world);
    expect(resolver.lookup('example.com', 'A', 0).rcode).toBe('SERVFAIL');
    world.setFailing('example.com', []);
    expect(resolver.lookup('example.com', 'A', 1).rcode).toBe('SERVFAIL');
    expect(resolver.lookup('example.com', 'A', 30_000).rcode).toBe('NOERROR');
  });
});
