// Fixtures and cases mirror letsencrypt/boulder `va/caa_test.go` at commit
// d1d082ce83d3648274fd70e91c966e3a50142a21 (caaMockDNS, caaHijackedDNS, TestCAAChecking, TestCAALogging,
// TestCAATimeout, TestCAAFailure, TestMultiCAARechecking, TestSelectCAA, TestFilterCAA, TestAccountURIMatches,
// TestValidationMethodMatches, TestExtractIssuerDomainAndParameters), read next to `va/caa.go` at commit
// 00b06d0d77e6ef07210dd3bd169b06f7936b3a7a. Rules are re-expressed, not ported. Boulder's account is
// prefix + id 123 (https://letsencrypt.org/acct/reg/123); here the request carries that URI, and Boulder's
// lookup errors (caa-timeout.com, gonetld) are SERVFAIL answers.
// The shared fixtures of the caa-*.test.ts files.
import { expect } from 'vitest';
import { evaluateCaa } from '../../src/domains/sim/caa.js';
import type { CaaDecision, CaaRequest } from '../../src/domains/sim/caa.js';
import type { CaaData, DnsAnswer, DnsLookup, QueryType, ResourceRecord } from '../../src/domains/sim/dns-types.js';

export interface Node {
  caa?: CaaData[];
  cname?: string;
  servfail?: true;
}
export type World = Record<string, Node>;

export const caa = (flags: number, tag: string, value: string): CaaData => ({ flags, tag, value });
export const issue = (value: string): CaaData => caa(0, 'issue', value);
export const issuewild = (value: string): CaaData => caa(0, 'issuewild', value);

/** Boulder's caaMockDNS, plus names for the rules Boulder's table lacks. Names not listed answer NXDOMAIN. */
export const MOCK: World = {
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
export const HIJACKED: World = {
  ...MOCK,
  'present.com': { caa: [issue('other-ca.com')] },
  'present.servfail.com': { caa: [issue('other-ca.com')] },
  'present-dns-only.com': { servfail: true },
  'satisfiable-wildcard.com': { caa: [issuewild(';'), issue(';')] },
};

export function rr(name: string, type: ResourceRecord['type'], data: ResourceRecord['data']): ResourceRecord {
  return { name, type, ttl: 300, data };
}

/** An in-memory resolver: follows CNAMEs as a recursive resolver does (CNAME chain first, then the target's records). */
export function lookupIn(world: World, calls: string[] = []): DnsLookup {
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

export const LE_ACCOUNT = 'https://letsencrypt.org/acct/reg/123';

export function request(name: string, overrides: Partial<CaaRequest> = {}): CaaRequest {
  return { name, caIdentity: 'letsencrypt.org', accountUri: LE_ACCOUNT, validationMethod: 'http-01', ...overrides };
}

export interface Case {
  title: string;
  domain: string;
  reason: CaaDecision['reason'];
  foundAt: string | undefined;
  method?: string;
  accountUri?: string;
  world?: World;
  queried?: string[];
}

export function check({ domain, reason, foundAt, method, accountUri, world, queried }: Case): void {
  const overrides: Partial<CaaRequest> = {};
  if (method !== undefined) overrides.validationMethod = method;
  if (accountUri !== undefined) overrides.accountUri = accountUri;
  const decision = evaluateCaa(lookupIn(world ?? MOCK), request(domain, overrides));
  expect({ reason: decision.reason, foundAt: decision.evidence.foundAt }).toEqual({ reason, foundAt });
  expect(decision.allowed).toBe(reason === 'no_caa_records' || reason === 'caa_permits');
  expect(decision.evidence.explanation).toMatch(/^[A-Z].*\.$/);
  if (queried !== undefined) expect(decision.evidence.queries.map((query) => query.name)).toEqual(queried);
}

export const GOOD = 'caa_permits';
export const BAD = 'caa_forbids';
