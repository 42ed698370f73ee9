import { describe, expect, it } from 'vitest';
import { apexOf, checkName, labelOf, parentsOf } from '../../src/domains/names.js';
import { CachingResolver, cacheSeconds } from '../../src/domains/caching-resolver.js';
import { DnsWorld } from '../../src/domains/dns-world.js';
import { parseDuration, formatOffset } from '../../src/core/duration.js';
import type { ProviderProfile } from '../../src/domains/providers.js';

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
    const world = new DnsWorld();
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
    const world = new DnsWorld();
    world.addZone('example.com', { ...provider, publishDelayMs: 0 });
    world.addRecord({ name: 'docs.example.com', type: 'A', data: '192.0.2.7', ttl: 300 }, 0);
    const resolver = new CachingResolver('r', world);
    resolver.lookup('docs.example.com', 'A', 0);
    world.removeRecords({ name: 'docs.example.com' }, 1000);
    const cached = resolver.lookup('docs.example.com', 'A', 100_000);
    expect(cached.answers).toEqual([{ name: 'docs.example.com', type: 'A', ttl: 200, data: '192.0.2.7' }]);
    expect(resolver.lookup('docs.example.com', 'A', 300_000).rcode).toBe('NXDOMAIN');
  });

  it('does not cache SERVFAIL', () => {
    const world = new DnsWorld();
    world.addZone('example.com', provider);
    world.setFailing('example.com', ['*']);
    const resolver = new CachingResolver('r', world);
    expect(resolver.lookup('example.com', 'A', 0).rcode).toBe('SERVFAIL');
    world.setFailing('example.com', []);
    expect(resolver.lookup('example.com', 'A', 1).rcode).toBe('NOERROR');
  });
});
