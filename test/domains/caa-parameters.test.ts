// evaluateCaa against Boulder's TestFilterCAA, TestAccountURIMatches, TestValidationMethodMatches
// and TestExtractIssuerDomainAndParameters, and the evidence a decision keeps (letsencrypt/boulder
// `va/caa_test.go`; provenance in caa-fixtures.ts).
import { describe, expect, it } from 'vitest';
import { caaRecordText, evaluateCaa, parseIssuerValue } from '../../src/domains/sim/caa.js';
import type { CaaRequest, IssuerValue } from '../../src/domains/sim/caa.js';
import type { DnsLookup } from '../../src/domains/sim/dns-types.js';
import { caa, issue, issuewild, MOCK, lookupIn, request, type World } from './caa-fixtures.js';

describe('evaluateCaa: record sets as Boulder TestFilterCAA sorts them (CA identity "a")', () => {
  it.each([
    [
      'recognized non-critical',
      [issue('a'), issuewild('b'), caa(0, 'iodef', 'c'), caa(0, 'issuemail', 'c')],
      'caa_permits',
    ],
    [
      'recognized critical',
      [caa(128, 'issue', 'a'), caa(128, 'issuewild', 'b'), caa(128, 'iodef', 'c'), caa(128, 'issuemail', 'c')],
      'caa_permits',
    ],
    ['unrecognized non-critical', [caa(2, 'unknown', '')], 'caa_permits'],
    ['unrecognized critical', [caa(128, 'unknown', '')], 'caa_unknown_critical_tag'],
    ['unrecognized improper critical', [caa(1, 'unknown', '')], 'caa_unknown_critical_tag'],
    ['unrecognized very improper critical', [caa(9, 'unknown', '')], 'caa_unknown_critical_tag'],
  ] as const)('%s', (_title, records, reason) => {
    const decision = evaluateCaa(
      lookupIn({ 'set.example': { caa: [...records] } }),
      request('set.example', { caIdentity: 'a' }),
    );
    expect(decision.reason).toBe(reason);
  });
});

/** Evaluates one `issue "letsencrypt.org; <parameters>"` record for the given request fields. */
function permitsWith(parameters: string[], fields: Partial<CaaRequest>): boolean {
  const value = ['letsencrypt.org', ...parameters].join('; ');
  const world: World = { 'parameters.example': { caa: [issue(value)] } };
  return evaluateCaa(lookupIn(world), request('parameters.example', fields)).allowed;
}

describe('evaluateCaa: Boulder TestAccountURIMatches (the request carries one exact account URI)', () => {
  const v01 = 'https://acme-v01.api.letsencrypt.org/acme/reg/';
  const v02 = 'https://acme-v02.api.letsencrypt.org/acme/reg/';
  it.each([
    ['empty accounturi', [], `${v01}123456`, 'http-01', true],
    [
      'no accounturi in rr, but other parameters exist',
      ['validationmethods=tls-alpn-01'],
      `${v02}123456`,
      'tls-alpn-01',
      true,
    ],
    ['non-uri accounturi', ['accounturi=\\invalid 😎/123456'], '\\invalid 😎/123456', 'http-01', false],
    ['simple match', [`accounturi=${v01}123456`], `${v01}123456`, 'http-01', true],
    [
      'simple match, but has a friend',
      ['validationmethods=dns-01', `accounturi=${v01}123456`],
      `${v01}123456`,
      'dns-01',
      true,
    ],
    ['accountid mismatch', [`accounturi=${v01}123456`], `${v01}123457`, 'http-01', false],
    ['single parameter, no value', ['accounturi='], `${v02}123456`, 'http-01', false],
    ['multiple parameters, each with no value', ['accounturi=', 'accounturi='], `${v02}123456`, 'http-01', false],
    [
      'multiple parameters, one with no value',
      ['accounturi=', `accounturi=${v02}123456`],
      `${v02}123456`,
      'http-01',
      false,
    ],
    [
      'multiple parameters, each with an identical value',
      [`accounturi=${v02}123456`, `accounturi=${v02}123456`],
      `${v02}123456`,
      'http-01',
      false,
    ],
    [
      'multiple parameters, each with a different value',
      [`accounturi=${v02}69`, `accounturi=${v02}420`],
      `${v02}69`,
      'http-01',
      false,
    ],
    [
      'multiple prefixes, match second (here: the v02 URI itself)',
      ['accounturi=https://acme-v02.api.letsencrypt.org/acme/acct/123456'],
      'https://acme-v02.api.letsencrypt.org/acme/acct/123456',
      'http-01',
      true,
    ],
    [
      'multiple prefixes, wrong accountid',
      ['accounturi=https://acme-v02.api.letsencrypt.org/acme/acct/123456'],
      'https://acme-v02.api.letsencrypt.org/acme/acct/654321',
      'http-01',
      false,
    ],
    ['accounturi, but the request has no account', [`accounturi=${v01}123456`], undefined, 'http-01', false],
  ] as const)('%s', (_title, parameters, accountUri, validationMethod, permits) => {
    expect(permitsWith([...parameters], { accountUri, validationMethod })).toBe(permits);
  });
});

describe('evaluateCaa: Boulder TestValidationMethodMatches', () => {
  it.each([
    ['empty validationmethods', [], 'http-01', true],
    [
      'no validationmethods in rr, but other parameters exist (an unknown one here)',
      ['foo=ph1LwuzHere'],
      'http-01',
      true,
    ],
    ['no value', ['validationmethods='], 'http-01', false],
    ['only comma', ['validationmethods=,'], 'http-01', false],
    ['malformed method', ['validationmethods=howdy !'], 'http-01', false],
    ['invalid method', ['validationmethods=tls-sni-01'], 'http-01', false],
    ['simple match', ['validationmethods=http-01'], 'http-01', true],
    [
      'simple match, but has a friend (an unknown one here)',
      ['foo=https://example.org', 'validationmethods=http-01'],
      'http-01',
      true,
    ],
    ['multiple validationmethods, each with no value', ['validationmethods=', 'validationmethods='], 'http-01', false],
    [
      'multiple validationmethods, one with no value',
      ['validationmethods=', 'validationmethods=http-01'],
      'http-01',
      false,
    ],
    [
      'multiple validationmethods, each with an identical value',
      ['validationmethods=http-01', 'validationmethods=http-01'],
      'http-01',
      false,
    ],
    [
      'multiple validationmethods, each with a different value',
      ['validationmethods=http-01', 'validationmethods=dns-01'],
      'http-01',
      false,
    ],
    ['simple mismatch', ['validationmethods=dns-01'], 'http-01', false],
    ['multiple choices, match first', ['validationmethods=http-01,dns-01'], 'http-01', true],
    ['multiple choices, match second', ['validationmethods=http-01,dns-01'], 'dns-01', true],
    ['multiple choices, match none', ['validationmethods=http-01,dns-01'], 'tls-alpn-01', false],
  ] as const)('%s', (_title, parameters, validationMethod, permits) => {
    expect(permitsWith([...parameters], { validationMethod })).toBe(permits);
  });
});

describe('parseIssuerValue: Boulder TestExtractIssuerDomainAndParameters', () => {
  const le = (...pairs: [string, string][]): IssuerValue => ({
    issuer: 'letsencrypt.org',
    parameters: pairs.map(([key, value]) => ({ key, value })),
  });
  it.each<[string, string, IssuerValue | undefined]>([
    ['empty record is valid', '', { issuer: '', parameters: [] }],
    ['only semicolon is valid', ';', { issuer: '', parameters: [] }],
    ['only semicolon and whitespace is valid', ' ; ', { issuer: '', parameters: [] }],
    ['only domain is valid', 'letsencrypt.org', le()],
    ['only domain with trailing semicolon is valid', 'letsencrypt.org;', le()],
    ['only domain with semicolon and trailing whitespace is valid', 'letsencrypt.org;   ', le()],
    [
      'domain with params and whitespace is valid',
      '  letsencrypt.org\t;foo=bar;baz=bar',
      le(['foo', 'bar'], ['baz', 'bar']),
    ],
    [
      'domain with params and different whitespace is valid',
      '\tletsencrypt.org ;foo=bar;baz=bar',
      le(['foo', 'bar'], ['baz', 'bar']),
    ],
    ['empty params are valid', 'letsencrypt.org; foo=; baz =\tbar', le(['foo', ''], ['baz', 'bar'])],
    ['whitespace around params is valid', 'letsencrypt.org; foo=\t; baz =\tbar', le(['foo', ''], ['baz', 'bar'])],
    [
      'comma-separated param values are valid',
      'letsencrypt.org; foo=b1,b2,b3\t; baz =\t\ta=b\t',
      le(['foo', 'b1,b2,b3'], ['baz', 'a=b']),
    ],
    [
      'duplicate tags are valid',
      'letsencrypt.org; foo=b1,b2,b3\t; foo= b1,b2,b3\t',
      le(['foo', 'b1,b2,b3'], ['foo', 'b1,b2,b3']),
    ],
    ['spaces in param values are invalid', 'letsencrypt.org; foo=b1,b2,b3\t; baz =\t\ta = b\t', undefined],
    ['spaces in param values are still invalid', 'letsencrypt.org; foo=b1,b2,b3\t; baz=a=\tb', undefined],
    ['param without equals sign is invalid', 'letsencrypt.org; foo=b1,b2,b3\t; baz =\t\ta;b\t', undefined],
    ['hyphens in param values are valid', 'letsencrypt.org; 1=2; baz=a-b', le(['1', '2'], ['baz', 'a-b'])],
    ['underscores in param tags are invalid', 'letsencrypt.org; a_b=123', undefined],
    ['multiple spaces in param values are extra invalid', 'letsencrypt.org; ab=1 2 3', undefined],
    ['hyphens in param tags are invalid', 'letsencrypt.org; 1=2; a-b=c', undefined],
    ['high codepoints in params are invalid', 'letsencrypt.org; foo=a\u2615b', undefined],
    ['missing semicolons between params are invalid', 'letsencrypt.org; foo=b1,b2,b3 baz=a', undefined],
    ['an empty parameter key is invalid', 'letsencrypt.org; =x', undefined],
    ['a second trailing semicolon is invalid', 'letsencrypt.org; foo=bar;', undefined],
  ])('%s', (_title, value, expected) => {
    expect(parseIssuerValue(value)).toEqual(expected);
  });
});

describe('evaluateCaa: evidence', () => {
  it('names the set, its records as text, every query with its rcode and a reason', () => {
    const decision = evaluateCaa(lookupIn(MOCK), request('nx.critical.com'));
    expect(decision).toEqual({
      allowed: false,
      reason: 'caa_forbids',
      evidence: {
        foundAt: 'critical.com',
        records: ['1 issue "ca.com"'],
        queries: [
          { name: 'nx.critical.com', rcode: 'NXDOMAIN' },
          { name: 'critical.com', rcode: 'NOERROR' },
        ],
        explanation:
          'No issue record at critical.com authorises letsencrypt.org for http-01: "ca.com" names another CA.',
      },
    });
  });

  it("records the CNAME target's CAA records as the set of the queried name", () => {
    const { evidence } = evaluateCaa(lookupIn(MOCK), request('cname-to-present.com'));
    expect(evidence).toMatchObject({
      foundAt: 'cname-to-present.com',
      records: ['0 issue "letsencrypt.org"'],
      queries: [{ name: 'cname-to-present.com', rcode: 'NOERROR' }],
    });
  });

  it('a lookup failure names the failing name and keeps no records', () => {
    const { evidence } = evaluateCaa(lookupIn(MOCK), request('child.servfail.com'));
    expect(evidence.records).toEqual([]);
    expect(evidence.queries).toEqual([
      { name: 'child.servfail.com', rcode: 'NXDOMAIN' },
      { name: 'servfail.com', rcode: 'SERVFAIL' },
    ]);
    expect(evidence.explanation).toContain('servfail.com answered SERVFAIL');
  });

  it('a bogus answer (DNSSEC) fails closed and the explanation names DNSSEC', () => {
    const bogus: DnsLookup = () => ({ rcode: 'SERVFAIL', answers: [], authority: [], bogus: 'DNSKEY Missing' });
    const decision = evaluateCaa(bogus, request('docs.example.com'));
    expect(decision).toMatchObject({ allowed: false, reason: 'caa_lookup_failed' });
    expect(decision.evidence.queries).toEqual([
      { name: 'docs.example.com', rcode: 'SERVFAIL', dnssec: 'DNSKEY Missing' },
    ]);
    expect(decision.evidence.explanation).toContain(
      'docs.example.com answered SERVFAIL (DNSSEC validation failed: DNSKEY Missing)',
    );
  });

  it('YXDOMAIN (a DNAME substitution too long, RFC 6672 §2.2) fails closed like SERVFAIL', () => {
    const yxdomain: DnsLookup = (name) =>
      name === 'long.example.com'
        ? { rcode: 'YXDOMAIN', answers: [], authority: [] }
        : { rcode: 'NOERROR', answers: [], authority: [] };
    const decision = evaluateCaa(yxdomain, request('long.example.com'));
    expect(decision).toMatchObject({ allowed: false, reason: 'caa_lookup_failed' });
    expect(decision.evidence.explanation).toContain('long.example.com answered YXDOMAIN');
  });

  it('explains each refusal reason of the governing records', () => {
    const world: World = {
      'why.example': {
        caa: [
          issue('letsencrypt.org; a_b=1'),
          issue(';'),
          issue('letsencrypt.org; accounturi=x'),
          issue('letsencrypt.org; validationmethods=dns-01'),
        ],
      },
    };
    const { explanation } = evaluateCaa(lookupIn(world), request('why.example')).evidence;
    expect(explanation).toMatch(/malformed.*names no CA.*another account.*validation method/);
  });

  it('says when an issuer differs only in case, since that is the mistake people make', () => {
    const { evidence } = evaluateCaa(lookupIn(MOCK), request('mixedcase-issuer.com'));
    expect(evidence.explanation).toContain('"LetsEncrypt.ORG" differs from this CA only in case');
  });

  it('an unknown critical tag is named in the explanation', () => {
    const { evidence } = evaluateCaa(lookupIn(MOCK), request('unknown-critical.com'));
    expect(evidence.explanation).toContain('"foo" marked critical (flags 128)');
  });

  it('asks nothing beyond the first non-empty set', () => {
    const calls: string[] = [];
    evaluateCaa(lookupIn(MOCK, calls), request('a.b.present.com'));
    expect(calls).toEqual(['a.b.present.com', 'b.present.com', 'present.com']);
  });

  it('quotes record values in presentation form', () => {
    expect(caaRecordText(caa(128, 'tbs', 'say "hi" \\o/'))).toBe('128 tbs "say \\"hi\\" \\\\o/"');
  });
});
