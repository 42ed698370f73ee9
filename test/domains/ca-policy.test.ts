import { describe, expect, it } from 'vitest';
import { loadWorld } from '../../src/domains/scenario/scenario-file.js';
import { CaLedger, LETS_ENCRYPT_POLICY, registeredDomainOf, reservedLabelOf } from '../../src/domains/sim/ca-policy.js';
import { buildSimulator, worldProblems, type Given } from '../../src/domains/sim/world-config.js';

// The CA's rate limits and identifier policy, as Let's Encrypt publishes them
// (https://letsencrypt.org/docs/rate-limits/): 50 new certificates per registered domain and 5 for
// the same names per 7 days, refilled one at a time; reserved LDH labels refused (Boulder policy/pa.go).
const world = await loadWorld();
const project = world.project.id;
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/** A simulator where `count` subdomains of example.com point at the platform. */
function withSubdomains(count: number, given: Given = {}) {
  const { simulator } = buildSimulator(world, { zones: [{ apex: 'example.com', provider: 'laxdns' }], ...given });
  const names = Array.from({ length: count }, (_, index) => `d${index}.example.com`);
  for (const name of names)
    simulator.addRecord({ name, type: 'CNAME', data: `${project}.${world.platform.domain}`, published: true });
  return { simulator, names };
}

describe('certificates per registered domain (50 per week)', () => {
  it('issues 50 certificates under example.com at once and refuses the 51st with rate_limited', () => {
    const { simulator, names } = withSubdomains(51);
    for (const name of names) {
      expect(simulator.addDomain(project, name).ok).toBe(true);
      expect(simulator.verify(project, name).ok).toBe(true);
    }
    simulator.advance(6 * MINUTE);
    const certificates = names.map((name) => simulator.domain(project, name)!.certificate);
    expect(certificates.filter((certificate) => certificate.state === 'issued')).toHaveLength(50);
    const refused = certificates.filter((certificate) => certificate.state !== 'issued');
    expect(refused).toHaveLength(1);
    expect(refused[0]).toMatchObject({ state: 'pending', lastError: { reason: 'rate_limited' } });
    expect(refused[0]!.lastError!.message).toMatch(/limit of 50 new certificates under example\.com per 7d/);
    // One certificate comes back every 7 days / 50 = 201.6 minutes: the platform orders again then.
    expect(refused[0]!.nextAttemptAt! - simulator.now).toBeLessThanOrEqual(202 * MINUTE);
    simulator.advance(3 * HOUR + 30 * MINUTE);
    expect(certificates.filter((certificate) => certificate.state === 'issued')).toHaveLength(50);
    const all = names.map((name) => simulator.domain(project, name)!.certificate.state);
    expect(all.every((state) => state === 'issued')).toBe(true);
  });

  it('counts names under other registered domains separately', () => {
    const ledger = new CaLedger(LETS_ENCRYPT_POLICY);
    for (let index = 0; index < 50; index++) ledger.issued([`d${index}.example.com`], false, 0);
    expect(ledger.refusal(['d50.example.com'], false, 0)).toMatchObject({ reason: 'rate_limited' });
    expect(ledger.refusal(['docs.example.org'], false, 0)).toBeUndefined();
    // Renewals do not count against the registered domain (they do against duplicates).
    expect(ledger.refusal(['d0.example.com'], true, 0)).toBeUndefined();
  });

  it('can be turned off in the world file (null) or by a scenario', () => {
    const { simulator, names } = withSubdomains(51, { ca: { certificatesPerRegisteredDomain: null } });
    for (const name of names) {
      simulator.addDomain(project, name);
      simulator.verify(project, name);
    }
    simulator.advance(6 * MINUTE);
    for (const name of names) expect(simulator.domain(project, name)!.certificate.state).toBe('issued');
  });
});

describe('duplicate certificates (5 per week for the same names)', () => {
  it('refuses the sixth certificate for one name, with the wait the refill gives', () => {
    const ledger = new CaLedger(LETS_ENCRYPT_POLICY);
    for (let index = 0; index < 5; index++) ledger.issued(['docs.example.com'], index > 2, index * HOUR);
    const refusal = ledger.refusal(['docs.example.com'], true, 5 * HOUR);
    expect(refusal).toMatchObject({ reason: 'rate_limited' });
    // One back every 7 days / 5 = 33.6 hours, counted from the first of the five.
    const retryAt = refusal!.reason === 'rate_limited' ? refusal!.retryAt : 0;
    expect(retryAt).toBeGreaterThan(33 * HOUR);
    expect(retryAt).toBeLessThanOrEqual(34 * HOUR);
    expect(ledger.refusal(['docs.example.com'], true, 33 * HOUR)).toMatchObject({ reason: 'rate_limited' });
    expect(ledger.refusal(['docs.example.com'], true, retryAt)).toBeUndefined();
  });
});

describe('what the dashboard shows of the limits (usage)', () => {
  const HOUR = 3_600_000;
  it('says what is left and when the next comes back, and forgets a limit once it has refilled', () => {
    const ledger = new CaLedger(LETS_ENCRYPT_POLICY);
    expect(ledger.usage(0)).toEqual([]);
    for (let index = 0; index < 5; index++) ledger.issued(['docs.example.com'], false, 0);
    const interval = (7 * 24 * HOUR) / 5; // 33.6 h
    expect(ledger.usage(0)).toEqual([
      {
        limit: 'duplicate',
        subject: 'docs.example.com',
        count: 5,
        periodMs: 7 * 24 * HOUR,
        remaining: 0,
        nextAt: interval,
      },
      {
        limit: 'registered-domain',
        subject: 'example.com',
        count: 50,
        periodMs: 7 * 24 * HOUR,
        remaining: 45,
        nextAt: (7 * 24 * HOUR) / 50,
      },
    ]);
    expect(ledger.usage(interval)[0]).toMatchObject({ remaining: 1, nextAt: 2 * interval });
    expect(ledger.usage(7 * 24 * HOUR)).toEqual([]);
  });
});

describe('identifier policy', () => {
  it.each([
    ['ab--docs.example.com', 'ab--docs'],
    ['docs.a1--b.example.com', 'a1--b'],
    ['xn--bcher-kva.example.com', undefined],
    ['a-b--c.example.com', undefined],
    ['docs.example.com', undefined],
  ])('%s has reserved label %s', (name, label) => {
    expect(reservedLabelOf(name)).toBe(label);
  });

  it('refuses a reserved label only while the policy says so', () => {
    expect(new CaLedger(LETS_ENCRYPT_POLICY).refusal(['ab--docs.example.com'], false, 0)).toMatchObject({
      reason: 'rejected_identifier',
    });
    const lax = new CaLedger({ ...LETS_ENCRYPT_POLICY, rejectReservedLabels: false });
    expect(lax.refusal(['ab--docs.example.com'], false, 0)).toBeUndefined();
  });

  it('counts under the registered domain of the Public Suffix List, private section included', () => {
    expect(registeredDomainOf('a.b.example.co.uk')).toBe('example.co.uk');
    expect(registeredDomainOf('docs.someone.github.io')).toBe('someone.github.io');
  });
});

describe('the world file', () => {
  it('accepts a CA policy and refuses a malformed one, naming the field', () => {
    expect(worldProblems({ ...world, ca: { duplicateCertificates: { count: 10, periodMs: 86_400_000 } } })).toEqual([]);
    expect(worldProblems({ ...world, ca: { duplicateCertificates: null, rejectReservedLabels: false } })).toEqual([]);
    expect(worldProblems({ ...world, ca: { duplicateCertificate: null } })[0]?.message).toMatch(
      /ca has an unknown field duplicateCertificate/,
    );
    expect(
      worldProblems({ ...world, ca: { certificatesPerRegisteredDomain: { count: 0, periodMs: 1000 } } })[0]?.message,
    ).toMatch(/certificatesPerRegisteredDomain must be an integer from 1/);
  });
});
