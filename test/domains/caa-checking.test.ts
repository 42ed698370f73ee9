// evaluateCaa against Boulder's TestCAAChecking table (letsencrypt/boulder `va/caa_test.go`;
// provenance in caa-fixtures.ts).
import { describe, it } from 'vitest';
import { check, GOOD, BAD, type Case } from './caa-fixtures.js';

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
