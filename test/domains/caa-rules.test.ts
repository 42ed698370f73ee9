// evaluateCaa against the CAA rules Boulder's table does not cover (letsencrypt/boulder
// `va/caa_test.go`; provenance in caa-fixtures.ts).
import { describe, expect, it } from 'vitest';
import { evaluateCaa } from '../../src/domains/sim/caa.js';
import { MOCK, lookupIn, request, check, GOOD, BAD, type Case } from './caa-fixtures.js';

describe("evaluateCaa: rules beyond Boulder's table", () => {
  const cases: Case[] = [
    {
      title: 'the climb includes the TLD',
      domain: 'other.test',
      reason: BAD,
      foundAt: 'test',
      queried: ['other.test', 'test'],
    },
    {
      title: 'SERVFAIL at a parent before any set fails closed',
      domain: 'child.servfail.com',
      reason: 'caa_lookup_failed',
      foundAt: undefined,
      queried: ['child.servfail.com', 'servfail.com'],
    },
    {
      title: 'a wildcard starts the lookup at its base name',
      domain: '*.present.com',
      reason: GOOD,
      foundAt: 'present.com',
      queried: ['present.com'],
    },
    {
      title: 'a wildcard climbs from its base name',
      domain: '*.child.present.com',
      reason: GOOD,
      foundAt: 'present.com',
      queried: ['child.present.com', 'present.com'],
    },
    {
      title: 'a wildcard without issuewild is governed by issue',
      domain: '*.reserved.com',
      reason: BAD,
      foundAt: 'reserved.com',
    },
    {
      title: 'issuewild is ignored for a non-wildcard name',
      domain: 'issuewild-only-forbids.com',
      reason: GOOD,
      foundAt: 'issuewild-only-forbids.com',
    },
    {
      title: 'issuewild is ignored for a non-wildcard name even if issue exists',
      domain: 'mixedcase-issuewild.com',
      reason: GOOD,
      foundAt: 'mixedcase-issuewild.com',
    },
    {
      title: 'issuewild tag is case-insensitive',
      domain: '*.mixedcase-issuewild.com',
      reason: BAD,
      foundAt: 'mixedcase-issuewild.com',
    },
    {
      title: 'a wildcard with only unknown non-critical tags is allowed (RFC 8659 §4; Boulder denies)',
      domain: '*.unknown-noncritical.com',
      reason: GOOD,
      foundAt: 'unknown-noncritical.com',
    },
    { title: 'iodef alone restricts nothing', domain: 'iodef-only.com', reason: GOOD, foundAt: 'iodef-only.com' },
    {
      title: 'iodef alone restricts nothing for a wildcard',
      domain: '*.iodef-only.com',
      reason: GOOD,
      foundAt: 'iodef-only.com',
    },
    {
      title: 'a critical iodef is a known tag',
      domain: 'critical-iodef.com',
      reason: GOOD,
      foundAt: 'critical-iodef.com',
    },
    {
      title: 'a critical issuemail is a known tag',
      domain: 'critical-issuemail.com',
      reason: GOOD,
      foundAt: 'critical-issuemail.com',
    },
    {
      title: 'an unknown critical tag denies even next to a permitting issue',
      domain: 'unknown-critical-with-issue.com',
      reason: 'caa_unknown_critical_tag',
      foundAt: 'unknown-critical-with-issue.com',
    },
    {
      title: 'an unknown critical tag denies wildcards too',
      domain: '*.unknown-critical.com',
      reason: 'caa_unknown_critical_tag',
      foundAt: 'unknown-critical.com',
    },
    {
      title: 'the issuer domain is compared exactly, as Boulder does (LetsEncrypt.ORG names another CA)',
      domain: 'mixedcase-issuer.com',
      reason: BAD,
      foundAt: 'mixedcase-issuer.com',
    },
    {
      title: 'an empty issuer with parameters permits no CA',
      domain: 'empty-issuer-with-parameters.com',
      reason: BAD,
      foundAt: 'empty-issuer-with-parameters.com',
    },
    { title: 'an empty value permits no CA', domain: 'empty-value.com', reason: BAD, foundAt: 'empty-value.com' },
    {
      title: 'a trailing semicolon without parameters is fine',
      domain: 'trailing-semicolon.com',
      reason: GOOD,
      foundAt: 'trailing-semicolon.com',
    },
    {
      title: 'an empty parameter voids the record',
      domain: 'double-semicolon.com',
      reason: BAD,
      foundAt: 'double-semicolon.com',
    },
    {
      title: 'a hyphen in a parameter key voids the record',
      domain: 'hyphen-key.com',
      reason: BAD,
      foundAt: 'hyphen-key.com',
    },
    {
      title: 'parameter keys are case-sensitive as in Boulder: AccountURI is an unknown parameter',
      domain: 'uppercase-parameter-key.com',
      reason: GOOD,
      foundAt: 'uppercase-parameter-key.com',
    },
    {
      title: 'a malformed record voids only itself',
      domain: 'malformed-then-good.com',
      reason: GOOD,
      foundAt: 'malformed-then-good.com',
    },
    {
      title: 'an empty validationmethods label voids the record',
      domain: 'http-or-dns-with-empty-label.com',
      reason: BAD,
      foundAt: 'http-or-dns-with-empty-label.com',
    },
    {
      title: 'validationmethods without the method used forbids (tls-alpn-01)',
      domain: 'present-http-or-dns.com',
      method: 'tls-alpn-01',
      reason: BAD,
      foundAt: 'present-http-or-dns.com',
    },
    {
      title: 'an empty account URI on the request matches no accounturi',
      domain: 'present-correct-accounturi.com',
      accountUri: '',
      reason: BAD,
      foundAt: 'present-correct-accounturi.com',
    },
    {
      title: 'a CNAME is followed at the queried name',
      domain: 'cname-to-present.com',
      reason: GOOD,
      foundAt: 'cname-to-present.com',
      queried: ['cname-to-present.com'],
    },
    {
      title: 'a CNAME chain is followed',
      domain: 'cname-chain.com',
      reason: GOOD,
      foundAt: 'cname-chain.com',
      queried: ['cname-chain.com'],
    },
    {
      title: "the CNAME target's records govern",
      domain: 'cname-to-reserved.com',
      reason: BAD,
      foundAt: 'cname-to-reserved.com',
    },
    {
      title: 'a CNAME to a failing name fails closed',
      domain: 'cname-to-servfail.com',
      reason: 'caa_lookup_failed',
      foundAt: undefined,
    },
    {
      title: "an empty CNAME target climbs the queried name's parents",
      domain: 'www.present.com',
      reason: GOOD,
      foundAt: 'present.com',
      queried: ['www.present.com', 'present.com'],
    },
    {
      title: "the CNAME target's parents are not consulted (RFC 8659)",
      domain: 'alias.example.net',
      reason: 'no_caa_records',
      foundAt: undefined,
      queried: ['alias.example.net', 'example.net', 'net'],
    },
  ];
  it.each(cases)('$title: $domain', (testCase) => check(testCase));

  it('a configured CA identity is what issue records are matched against', () => {
    const decision = evaluateCaa(lookupIn(MOCK), request('reserved.com', { caIdentity: 'ca.com' }));
    expect(decision).toMatchObject({ allowed: true, reason: 'caa_permits' });
  });

  it('an omitted accountUri fails an accounturi parameter but not a record without one', () => {
    const bound = evaluateCaa(lookupIn(MOCK), {
      name: 'present-correct-accounturi.com',
      caIdentity: 'letsencrypt.org',
      validationMethod: 'http-01',
    });
    const unbound = evaluateCaa(lookupIn(MOCK), {
      name: 'present.com',
      caIdentity: 'letsencrypt.org',
      validationMethod: 'http-01',
    });
    expect([bound.reason, unbound.reason]).toEqual(['caa_forbids', 'caa_permits']);
  });
});
