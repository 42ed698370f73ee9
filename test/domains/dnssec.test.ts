import { describe, expect, it } from 'vitest';
import { CachingResolver } from '../../src/domains/sim/caching-resolver.js';
import { DnsZones } from '../../src/domains/sim/dns-zones.js';
import { DS_TTL, type DnssecState } from '../../src/domains/sim/dnssec.js';
import type { ProviderProfile } from '../../src/domains/sim/providers.js';

// A validating resolver's verdicts (RFC 4035 §4.3): the chain of trust from the registry (a signed
// TLD) down through each zone's DS and DNSKEY; a non-validating resolver answers whatever they are.

const PROVIDER: ProviderProfile = {
  id: 'testdns',
  name: 'TestDNS',
  supportsAlias: true,
  cnameWithOtherData: 'reject',
  publishDelayMs: 0,
  negativeTtl: 300,
  defaultTtl: 300,
  caaQueries: 'answered',
};

/** example.com with a delegated sub-zone sub.example.com, each in the DNSSEC state given. */
function world(parent: DnssecState, child?: DnssecState): DnsZones {
  const dns = new DnsZones();
  dns.addZone('example.com', PROVIDER);
  dns.setDnssec('example.com', parent);
  dns.addRecord({ name: 'www.example.com', type: 'A', data: '192.0.2.1', published: true }, 0);
  if (child) {
    dns.addZone('sub.example.com', PROVIDER);
    dns.setDnssec('sub.example.com', child);
    dns.addRecord({ name: 'www.sub.example.com', type: 'A', data: '192.0.2.2', published: true }, 0);
  }
  return dns;
}

const validating = (dns: DnsZones) => new CachingResolver('v', dns, { validating: true });

describe('the chain of trust', () => {
  it.each([
    ['unsigned', undefined, 'www.example.com', 'insecure', 'NOERROR'],
    ['signed', undefined, 'www.example.com', 'secure', 'NOERROR'],
    ['signed', undefined, 'nothing.example.com', 'secure', 'NXDOMAIN'],
    ['signed-without-ds', undefined, 'www.example.com', 'insecure', 'NOERROR'],
    ['stale-ds', undefined, 'www.example.com', 'bogus', 'SERVFAIL'],
    ['signed', 'signed', 'www.sub.example.com', 'secure', 'NOERROR'],
    ['signed', 'unsigned', 'www.sub.example.com', 'insecure', 'NOERROR'],
    ['unsigned', 'signed', 'www.sub.example.com', 'insecure', 'NOERROR'],
    ['stale-ds', 'signed', 'www.sub.example.com', 'bogus', 'SERVFAIL'],
    ['signed', 'stale-ds', 'www.sub.example.com', 'bogus', 'SERVFAIL'],
    ['signed', 'stale-ds', 'www.example.com', 'secure', 'NOERROR'],
  ] as const)('parent %s, child %s: %s is %s (%s)', (parent, child, name, security, rcode) => {
    const answer = validating(world(parent, child)).lookup(name, 'A', 0);
    expect(answer).toMatchObject({ security, rcode });
    if (security === 'bogus') expect(answer.bogus).toBe('DNSKEY Missing');
  });

  it('a DS question is the parent’s data: secure even when the child is bogus', () => {
    const answer = validating(world('signed', 'stale-ds')).lookup('sub.example.com', 'DS', 0);
    expect(answer).toMatchObject({ rcode: 'NOERROR', security: 'secure' });
    expect(answer.answers.map((record) => record.type)).toEqual(['DS']);
  });

  it('CD: a bogus answer is given, still marked bogus', () => {
    const answer = validating(world('stale-ds')).lookup('www.example.com', 'A', 0, { checkingDisabled: true });
    expect(answer).toMatchObject({ rcode: 'NOERROR', security: 'bogus' });
    expect(answer.answers).toHaveLength(1);
  });

  it('a non-validating resolver answers a bogus zone and judges nothing', () => {
    const answer = new CachingResolver('n', world('stale-ds')).lookup('www.example.com', 'A', 0);
    expect(answer.rcode).toBe('NOERROR');
    expect(answer.security).toBeUndefined();
  });
});

describe('a DS removed at the registrar', () => {
  it('keeps failing while a resolver holds it, for its TTL (1 day)', () => {
    const dns = world('stale-ds');
    const resolver = validating(dns);
    expect(resolver.lookup('www.example.com', 'A', 0).rcode).toBe('SERVFAIL');
    dns.setDnssec('example.com', 'unsigned');
    expect(resolver.lookup('www.example.com', 'A', DS_TTL * 1000 - 1000).rcode).toBe('SERVFAIL');
    expect(resolver.lookup('www.example.com', 'A', DS_TTL * 1000)).toMatchObject({
      rcode: 'NOERROR',
      security: 'insecure',
    });
    expect(validating(dns).lookup('www.example.com', 'A', 0).rcode).toBe('NOERROR'); // a fresh cache sees it at once
  });
});
