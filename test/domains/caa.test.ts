// Fixtures and cases mirror letsencrypt/boulder `va/caa_test.go` at commit
// d1d082ce83d3648274fd70e91c966e3a50142a21 (caaMockDNS, caaHijackedDNS, TestCAAChecking, TestCAALogging,
// TestCAATimeout, TestCAAFailure, TestMultiCAARechecking, TestSelectCAA, TestFilterCAA, TestAccountURIMatches,
// TestValidationMethodMatches, TestExtractIssuerDomainAndParameters), read next to `va/caa.go` at commit
// 00b06d0d77e6ef07210dd3bd169b06f7936b3a7a. Rules are re-expressed, not ported. Boulder's account is
// prefix + id 123 (https://letsencrypt.org/acct/reg/123); here the request carries that URI, and Boulder's
// lookup errors (caa-timeout.com, gonetld) are SERVFAIL answers.
import { describe, expect, it } from 'vitest';
import { caaRecordText, evaluateCaa, parseIssuerValue } from '../../src/domains/sim/caa.js';
import type { CaaDecision, CaaRequest, IssuerValue } from '../../src/domains/sim/caa.js';
import type { CaaData, DnsAnswer, DnsLookup, QueryType, ResourceRecord } from '../../src/domains/sim/dns-types.js';

interface Node {
  caa?: CaaData[];
  cname?: string;
  servfail?: true;
}
type World = Record<string, Node>;

const caa = (flags: number, tag: string, value: string): CaaData => ({ flags, tag, value });
const issue = (value: string): CaaData => caa(0, 'issue', value);
const issuewild = (value: string): CaaData => caa(0, 'issuewild', value);

/** Boulder's caaMockDNS, plus names for the rules Boulder's table lacks. Names not listed answer NXDOMAIN. */
const MOCK: World = {
  'caa-timeout.com': { servfail: true },
  'reserved.com': { caa: [issue('ca.com')] },
  'mixedcase.com': { caa: [caa(0, 'iSsUe', 'ca.com')] },
  'critical.com': { caa: [caa(1, 'issue', 'ca.com')] },
  'present.com': { caa: [issue('letsencrypt.org')] },
  'present.servfail.com': { caa: [issue('letsencrypt.org')] },
  com: {},
  gonetld: { servfail: true },
  'servfail.com': { servfail: true },
  'servfail.present.com': { servfail: true },
  'multi-crit-present.com': { caa: [caa(1, 'issue', 'ca.com'), caa(1, 'issue', 'letsencrypt.org')] },
  'unknown-critical.com': { caa: [caa(128, 'foo', 'bar')] },
  'unknown-critical2.com': { caa: [caa(1, 'foo', 'bar')] },
  'unknown-noncritical.com': { caa: [caa(0x7e, 'foo', 'bar')] },
  'present-with-parameter.com': { caa: [issue('  letsencrypt.org  ;foo=bar;baz=bar')] },
  'present-with-invalid-tag.com': { caa: [issue('letsencrypt.org; a_b=123')] },
  'present-with-invalid-value.com': { caa: [issue('letsencrypt.org; ab=1 2 3')] },
  'present-dns-only.com': { caa: [issue('letsencrypt.org; validationmethods=dns-01')] },
  'present-http-only.com': { caa: [issue('letsencrypt.org; validationmethods=http-01')] },
  'present-http-or-dns.com': { caa: [issue('letsencrypt.org; validationmethods=http-01,dns-01')] },
  'present-dns-only-correct-accounturi.com': {
    caa: [issue('letsencrypt.org; accounturi=https://letsencrypt.org/acct/reg/123; validationmethods=dns-01')],
  },
  'present-http-only-correct-accounturi.com': {
    caa: [issue('letsencrypt.org; accounturi=https://letsencrypt.org/acct/reg/123; validationmethods=http-01')],
  },
  'present-http-only-incorrect-accounturi.com': {
    caa: [issue('letsencrypt.org; accounturi=https://letsencrypt.org/acct/reg/321; validationmethods=http-01')],
  },
  'present-correct-accounturi.com': {
    caa: [issue('letsencrypt.org; accounturi=https://letsencrypt.org/acct/reg/123')],
  },
  'present-incorrect-accounturi.com': {
    caa: [issue('letsencrypt.org; accounturi=https://letsencrypt.org/acct/reg/321')],
  },
  'present-multiple-accounturi.com': {
    caa: [
      issue('letsencrypt.org; accounturi=https://letsencrypt.org/acct/reg/321'),
      issue('letsencrypt.org; accounturi=https://letsencrypt.org/acct/reg/123'),
    ],
  },
  'unsatisfiable.com': { caa: [issue(';')] },
  'unsatisfiable-wildcard.com': { caa: [issuewild(';')] },
  'unsatisfiable-wildcard-override.com': { caa: [issue('letsencrypt.org'), issuewild('ca.com')] },
  'satisfiable-wildcard-override.com': { caa: [issue('ca.com'), issuewild('letsencrypt.org')] },
  'satisfiable-multi-wildcard.com': { caa: [issuewild('ca.com'), issuewild('letsencrypt.org')] },
  'satisfiable-wildcard.com': { caa: [issuewild('letsencrypt.org')] },

  'absent.com': {},
  test: { caa: [issue('ca.com')] },
  'foo.test': { caa: [issue('letsencrypt.org')] },
  'bar.foo.test': {},
  'cname-to-present.com': { cname: 'present.com' },
  'cname-to-reserved.com': { cname: 'reserved.com' },
  'cname-to-servfail.com': { cname: 'servfail.com' },
  'cname-chain.com': { cname: 'cname-to-present.com' },
  'www.present.com': { cname: 'target.example.net' },
  'alias.example.net': { cname: 'host.reserved.com' },
  'host.reserved.com': {},
  'iodef-only.com': { caa: [caa(0, 'iodef', 'mailto:security@iodef-only.com')] },
  'critical-iodef.com': { caa: [caa(128, 'iodef', 'mailto:security@critical-iodef.com')] },
  'critical-issuemail.com': { caa: [caa(128, 'issuemail', 'letsencrypt.org')] },
  'unknown-critical-with-issue.com': { caa: [issue('letsencrypt.org'), caa(128, 'tbs', 'unknown')] },
  'issuewild-only-forbids.com': { caa: [issuewild(';')] },
  'mixedcase-issuewild.com': { caa: [issue('letsencrypt.org'), caa(0, 'IssueWild', ';')] },
  'mixedcase-issuer.com': { caa: [issue('LetsEncrypt.ORG')] },
  'empty-issuer-with-parameters.com': { caa: [issue('; accounturi=https://letsencrypt.org/acct/reg/123')] },
  'empty-value.com': { caa: [issue('')] },
  'trailing-semicolon.com': { caa: [issue('letsencrypt.org;')] },
  'double-semicolon.com': { caa: [issue('letsencrypt.org;;')] },
  'hyphen-key.com': { caa: [issue('letsencrypt.org; account-uri=x')] },
  'uppercase-parameter-key.com': { caa: [issue('letsencrypt.org; AccountURI=https://letsencrypt.org/acct/reg/999')] },
  'malformed-then-good.com': { caa: [issue('letsencrypt.org; a_b=1'), issue('letsencrypt.org')] },
  'http-or-dns-with-empty-label.com': { caa: [issue('letsencrypt.org; validationmethods=http-01,')] },
};

/** Boulder's caaHijackedDNS: what a remote perspective sees when the answers were tampered with. */
const HIJACKED: World = {
  ...MOCK,
  'present.com': { caa: [issue('other-ca.com')] },
  'present.servfail.com': { caa: [issue('other-ca.com')] },
  'present-dns-only.com': { servfail: true },
  'satisfiable-wildcard.com': { caa: [issuewild(';'), issue(';')] },
};

function rr(name: string, type: ResourceRecord['type'], data: ResourceRecord['data']): ResourceRecord {
  return { name, type, ttl: 300, data };
}

/** An in-memory resolver: follows CNAMEs as a recursive resolver does (CNAME chain first, then the target's records). */
function lookupIn(world: World, calls: string[] = []): DnsLookup {
  const lookup = (name: string, type: QueryType): DnsAnswer => {
    calls.push(name);
    const node = world[name];
    if (node === undefined) return { rcode: 'NXDOMAIN', answers: [], authority: [] };
    if (node.servfail) return { rcode: 'SERVFAIL', answers: [], authority: [] };
    if (node.cname !== undefined) {
      const target = lookup(node.cname, type);
      return { ...target, answers: [rr(name, 'CNAME', node.cname), ...target.answers] };
    }
    const records = type === 'CAA' ? (node.caa ?? []) : [];
    return { rcode: 'NOERROR', answers: records.map((data) => rr(name, 'CAA', data)), authority: [] };
  };
  return lookup;
}

const LE_ACCOUNT = 'https://letsencrypt.org/acct/reg/123';

function request(name: string, overrides: Partial<CaaRequest> = {}): CaaRequest {
  return { name, caIdentity: 'letsencrypt.org', accountUri: LE_ACCOUNT, validationMethod: 'http-01', ...overrides };
}

interface Case {
  title: string;
  domain: string;
  reason: CaaDecision['reason'];
  foundAt: string | undefined;
  method?: string;
  accountUri?: string;
  world?: World;
  queried?: string[];
}

function check({ domain, reason, foundAt, method, accountUri, world, queried }: Case): void {
  const overrides: Partial<CaaRequest> = {};
  if (method !== undefined) overrides.validationMethod = method;
  if (accountUri !== undefined) overrides.accountUri = accountUri;
  const decision = evaluateCaa(lookupIn(world ?? MOCK), request(domain, overrides));
  expect({ reason: decision.reason, foundAt: decision.evidence.foundAt }).toEqual({ reason, foundAt });
  expect(decision.allowed).toBe(reason === 'no_caa_records' || reason === 'caa_permits');
  expect(decision.evidence.explanation).toMatch(/^[A-Z].*\.$/);
  if (queried !== undefined) expect(decision.evidence.queries.map((query) => query.name)).toEqual(queried);
}

const GOOD = 'caa_permits';
const BAD = 'caa_forbids';

describe('evaluateCaa: Boulder TestCAAChecking (account .../reg/123, http-01)', () => {
  const cases: Case[] = [
    { title: 'Bad (Reserved)', domain: 'reserved.com', reason: BAD, foundAt: 'reserved.com' },
    { title: 'Bad (Reserved, Mixed case Issue)', domain: 'mixedcase.com', reason: BAD, foundAt: 'mixedcase.com' },
    { title: 'Bad (Critical)', domain: 'critical.com', reason: BAD, foundAt: 'critical.com' },
    { title: 'Bad (NX Critical)', domain: 'nx.critical.com', reason: BAD, foundAt: 'critical.com' },
    { title: 'Good (absent)', domain: 'absent.com', reason: 'no_caa_records', foundAt: undefined },
    { title: 'Good (example.co.uk, absent)', domain: 'example.co.uk', reason: 'no_caa_records', foundAt: undefined },
    { title: 'Good (present and valid)', domain: 'present.com', reason: GOOD, foundAt: 'present.com' },
    { title: 'Good (present on parent)', domain: 'child.present.com', reason: GOOD, foundAt: 'present.com' },
    {
      title: 'Good (present w/ servfail exception?)',
      domain: 'present.servfail.com',
      reason: GOOD,
      foundAt: 'present.servfail.com',
      queried: ['present.servfail.com'],
    },
    {
      title: 'Good (multiple critical, one matching)',
      domain: 'multi-crit-present.com',
      reason: GOOD,
      foundAt: 'multi-crit-present.com',
    },
    {
      title: 'Bad (unknown critical)',
      domain: 'unknown-critical.com',
      reason: 'caa_unknown_critical_tag',
      foundAt: 'unknown-critical.com',
    },
    {
      title: 'Bad (unknown critical 2)',
      domain: 'unknown-critical2.com',
      reason: 'caa_unknown_critical_tag',
      foundAt: 'unknown-critical2.com',
    },
    {
      title: 'Good (unknown non-critical, no issue/issuewild)',
      domain: 'unknown-noncritical.com',
      reason: GOOD,
      foundAt: 'unknown-noncritical.com',
    },
    {
      title: 'Good (issue rec with unknown params)',
      domain: 'present-with-parameter.com',
      reason: GOOD,
      foundAt: 'present-with-parameter.com',
    },
    {
      title: 'Bad (issue rec with invalid tag)',
      domain: 'present-with-invalid-tag.com',
      reason: BAD,
      foundAt: 'present-with-invalid-tag.com',
    },
    {
      title: 'Bad (issue rec with invalid value)',
      domain: 'present-with-invalid-value.com',
      reason: BAD,
      foundAt: 'present-with-invalid-value.com',
    },
    {
      title: 'Bad (restricts to dns-01, but tested with http-01)',
      domain: 'present-dns-only.com',
      reason: BAD,
      foundAt: 'present-dns-only.com',
    },
    {
      title: 'Good (restricts to http-01, tested with http-01)',
      domain: 'present-http-only.com',
      reason: GOOD,
      foundAt: 'present-http-only.com',
    },
    {
      title: 'Good (restricts to http-01 or dns-01, tested with http-01)',
      domain: 'present-http-or-dns.com',
      reason: GOOD,
      foundAt: 'present-http-or-dns.com',
    },
    {
      title: 'Good (restricts to accounturi, tested with correct account)',
      domain: 'present-correct-accounturi.com',
      reason: GOOD,
      foundAt: 'present-correct-accounturi.com',
    },
    {
      title: 'Good (restricts to http-01 and accounturi, tested with correct account)',
      domain: 'present-http-only-correct-accounturi.com',
      reason: GOOD,
      foundAt: 'present-http-only-correct-accounturi.com',
    },
    {
      title: 'Bad (restricts to dns-01 and accounturi, tested with http-01)',
      domain: 'present-dns-only-correct-accounturi.com',
      reason: BAD,
      foundAt: 'present-dns-only-correct-accounturi.com',
    },
    {
      title: 'Bad (restricts to http-01 and accounturi, tested with incorrect account)',
      domain: 'present-http-only-incorrect-accounturi.com',
      reason: BAD,
      foundAt: 'present-http-only-incorrect-accounturi.com',
    },
    {
      title: 'Bad (restricts to accounturi, tested with incorrect account)',
      domain: 'present-incorrect-accounturi.com',
      reason: BAD,
      foundAt: 'present-incorrect-accounturi.com',
    },
    {
      title: 'Good (restricts to multiple accounturi, tested with a correct account)',
      domain: 'present-multiple-accounturi.com',
      reason: GOOD,
      foundAt: 'present-multiple-accounturi.com',
    },
    {
      title: 'Bad (unsatisfiable issue record)',
      domain: 'unsatisfiable.com',
      reason: BAD,
      foundAt: 'unsatisfiable.com',
    },
    {
      title: 'Bad (unsatisfiable issue, wildcard)',
      domain: '*.unsatisfiable.com',
      reason: BAD,
      foundAt: 'unsatisfiable.com',
    },
    {
      title: 'Bad (unsatisfiable wildcard)',
      domain: '*.unsatisfiable-wildcard.com',
      reason: BAD,
      foundAt: 'unsatisfiable-wildcard.com',
    },
    {
      title: 'Bad (unsatisfiable wildcard override)',
      domain: '*.unsatisfiable-wildcard-override.com',
      reason: BAD,
      foundAt: 'unsatisfiable-wildcard-override.com',
    },
    {
      title: 'Good (satisfiable wildcard)',
      domain: '*.satisfiable-wildcard.com',
      reason: GOOD,
      foundAt: 'satisfiable-wildcard.com',
    },
    {
      title: 'Good (multiple issuewild, one satisfiable)',
      domain: '*.satisfiable-multi-wildcard.com',
      reason: GOOD,
      foundAt: 'satisfiable-multi-wildcard.com',
    },
    {
      title: 'Good (satisfiable wildcard override)',
      domain: '*.satisfiable-wildcard-override.com',
      reason: GOOD,
      foundAt: 'satisfiable-wildcard-override.com',
    },
  ];
  it.each(cases)('$title: $domain', (testCase) => check(testCase));
});

describe('evaluateCaa: Boulder TestCAALogging, TestCAATimeout, TestCAAFailure, TestMultiCAARechecking, TestSelectCAA', () => {
  const cases: Case[] = [
    { title: 'TestCAALogging reserved.com, http-01', domain: 'reserved.com', reason: BAD, foundAt: 'reserved.com' },
    {
      title: 'TestCAALogging reserved.com, dns-01',
      domain: 'reserved.com',
      method: 'dns-01',
      reason: BAD,
      foundAt: 'reserved.com',
    },
    { title: 'TestCAALogging mixedcase.com', domain: 'mixedcase.com', reason: BAD, foundAt: 'mixedcase.com' },
    { title: 'TestCAALogging critical.com', domain: 'critical.com', reason: BAD, foundAt: 'critical.com' },
    { title: 'TestCAALogging present.com', domain: 'present.com', reason: GOOD, foundAt: 'present.com' },
    {
      title: 'TestCAALogging not.here.but.still.present.com',
      domain: 'not.here.but.still.present.com',
      reason: GOOD,
      foundAt: 'present.com',
      queried: [
        'not.here.but.still.present.com',
        'here.but.still.present.com',
        'but.still.present.com',
        'still.present.com',
        'present.com',
      ],
    },
    {
      title: 'TestCAALogging multi-crit-present.com',
      domain: 'multi-crit-present.com',
      reason: GOOD,
      foundAt: 'multi-crit-present.com',
    },
    {
      title: 'TestCAALogging present-with-parameter.com',
      domain: 'present-with-parameter.com',
      reason: GOOD,
      foundAt: 'present-with-parameter.com',
    },
    {
      title: 'TestCAALogging satisfiable-wildcard-override.com (not a wildcard: issue governs)',
      domain: 'satisfiable-wildcard-override.com',
      reason: BAD,
      foundAt: 'satisfiable-wildcard-override.com',
    },
    {
      title: 'TestCAATimeout caa-timeout.com fails closed',
      domain: 'caa-timeout.com',
      reason: 'caa_lookup_failed',
      foundAt: undefined,
    },
    { title: 'TestCAAFailure reserved.com', domain: 'reserved.com', reason: BAD, foundAt: 'reserved.com' },
    {
      title: 'TestCAAFailure example.gonetld (the TLD lookup fails)',
      domain: 'example.gonetld',
      reason: 'caa_lookup_failed',
      foundAt: undefined,
      queried: ['example.gonetld', 'gonetld'],
    },
    {
      title: 'TestMultiCAARechecking present-dns-only.com, dns-01',
      domain: 'present-dns-only.com',
      method: 'dns-01',
      reason: GOOD,
      foundAt: 'present-dns-only.com',
    },
    {
      title: 'TestMultiCAARechecking present.com, dns-01',
      domain: 'present.com',
      method: 'dns-01',
      reason: GOOD,
      foundAt: 'present.com',
    },
    {
      title: 'TestMultiCAARechecking unsatisfiable.com forbids',
      domain: 'unsatisfiable.com',
      method: 'dns-01',
      reason: BAD,
      foundAt: 'unsatisfiable.com',
    },
    {
      title: 'TestMultiCAARechecking satisfiable-wildcard.com (issuewild only, not a wildcard)',
      domain: 'satisfiable-wildcard.com',
      method: 'dns-01',
      reason: GOOD,
      foundAt: 'satisfiable-wildcard.com',
    },
    {
      title: 'TestMultiCAARechecking hijacked present.com',
      domain: 'present.com',
      method: 'dns-01',
      world: HIJACKED,
      reason: BAD,
      foundAt: 'present.com',
    },
    {
      title: 'TestMultiCAARechecking hijacked present-dns-only.com (SERVFAIL)',
      domain: 'present-dns-only.com',
      method: 'dns-01',
      world: HIJACKED,
      reason: 'caa_lookup_failed',
      foundAt: undefined,
    },
    {
      title: 'TestMultiCAARechecking hijacked satisfiable-wildcard.com',
      domain: 'satisfiable-wildcard.com',
      method: 'dns-01',
      world: HIJACKED,
      reason: BAD,
      foundAt: 'satisfiable-wildcard.com',
    },
    {
      title: 'caaHijackedDNS present.servfail.com',
      domain: 'present.servfail.com',
      world: HIJACKED,
      reason: BAD,
      foundAt: 'present.servfail.com',
    },
    {
      title: 'TestSelectCAA only empty answers: no set',
      domain: 'absent.com',
      reason: 'no_caa_records',
      foundAt: undefined,
      queried: ['absent.com', 'com'],
    },
    {
      title: 'TestSelectCAA an error before a set is returned',
      domain: 'servfail.present.com',
      reason: 'caa_lookup_failed',
      foundAt: undefined,
      queried: ['servfail.present.com'],
    },
    {
      title: 'TestSelectCAA a set before an error wins',
      domain: 'present.servfail.com',
      reason: GOOD,
      foundAt: 'present.servfail.com',
      queried: ['present.servfail.com'],
    },
    {
      title: 'TestSelectCAA the first non-empty set wins over the TLD',
      domain: 'bar.foo.test',
      reason: GOOD,
      foundAt: 'foo.test',
      queried: ['bar.foo.test', 'foo.test'],
    },
  ];
  it.each(cases)('$title', (testCase) => check(testCase));
});

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
