// evaluateCaa against Boulder's TestCAALogging, TestCAATimeout, TestCAAFailure,
// TestMultiCAARechecking and TestSelectCAA (letsencrypt/boulder `va/caa_test.go`; provenance in
// caa-fixtures.ts).
import { describe, it } from 'vitest';
import { HIJACKED, check, GOOD, BAD, type Case } from './caa-fixtures.js';

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
