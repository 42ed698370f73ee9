import { describe, expect, it } from 'vitest';
import { loadWorld } from '../../src/domains/scenario/scenario-file.js';
import { checkName } from '../../src/domains/sim/names.js';
import { buildSimulator } from '../../src/domains/sim/world-config.js';

// What the dashboard shows comes from these messages and evidence: each one must say what is
// really going on (issue 22), not something a person would misread.
const world = await loadWorld();
const project = world.project.id;
const host = `${project}.${world.platform.domain}`;
const MINUTE = 60_000;

describe('names typed as URLs', () => {
  it.each(['https://docs.example.com', 'http://docs.example.com/', 'docs.example.com:443'])(
    '%s is refused as a URL, with the name to use instead of "is an IP address"',
    (input) => {
      const checked = checkName(input);
      expect(checked.ok).toBe(false);
      expect(!checked.ok && checked.reason).not.toMatch(/IP address/);
      expect(!checked.ok && checked.reason).toMatch(/docs\.example\.com/);
    },
  );

  it('still refuses real IP addresses as IP addresses', () => {
    for (const input of ['192.0.2.1', '2001:db8::1'])
      expect(checkName(input)).toMatchObject({ ok: false, reason: expect.stringMatching(/IP address/) });
  });
});

describe('the certificate while issuance fails, before 30 minutes', () => {
  it('says it is failing and shows the blocking CAA record, not "usually within a few minutes"', () => {
    const { simulator } = buildSimulator(world, {
      zones: [
        {
          apex: 'example.com',
          provider: 'laxdns',
          records: [
            { name: 'example.com', type: 'CAA', value: { flags: 0, tag: 'issue', value: 'digicert.com' }, ttl: 3600 },
            { name: 'docs.example.com', type: 'CNAME', value: host },
          ],
        },
      ],
    });
    simulator.addDomain(project, 'docs.example.com');
    simulator.verify(project, 'docs.example.com');
    simulator.advance(6 * MINUTE);
    const certificate = simulator.domain(project, 'docs.example.com')!.certificate;
    expect(certificate.state).toBe('pending');
    expect(certificate.message).not.toMatch(/usually within a few minutes/);
    expect(certificate.message).toMatch(/CAA/);
    expect(certificate.evidence.observed).toContain('example.com CAA 0 issue "digicert.com"');

    // The fix: the CA keeps reading its cached CAA answer, and the evidence says until when.
    simulator.removeRecords({ name: 'example.com', type: 'CAA' });
    simulator.addRecord({
      name: 'example.com',
      type: 'CAA',
      data: { flags: 0, tag: 'issue', value: 'letsencrypt.org' },
    });
    simulator.advance(10 * MINUTE);
    const after = simulator.domain(project, 'docs.example.com')!.certificate;
    expect(after.lastError?.reason).toBe('caa_forbids');
    expect(after.evidence.cachedUntil).toBeGreaterThan(simulator.now);
    expect(after.evidence.hint).toMatch(/cached/);
  });
});

describe('DNS evidence read from a cache', () => {
  it('says a counted-down TTL comes from the cache, so 1500 next to 3600 is not a mismatch', () => {
    const { simulator } = buildSimulator(world, {
      zones: [
        {
          apex: 'example.com',
          provider: 'laxdns',
          records: [{ name: 'docs.example.com', type: 'CNAME', value: host, ttl: 3600 }],
        },
      ],
    });
    simulator.addDomain(project, 'docs.example.com');
    simulator.verify(project, 'docs.example.com');
    simulator.advance(35 * MINUTE);
    const domain = simulator.verify(project, 'docs.example.com', { reverify: true });
    const observed = (domain.ok ? domain.value.dns.evidence.observed : undefined) ?? [];
    expect(observed[0]).toMatch(/^docs\.example\.com 1500 CNAME/);
    expect(observed[0]).toMatch(/resolver cache/);
  });
});

describe('a flattened CNAME', () => {
  it('says the provider answers with the platform addresses (flattening) instead of "no CNAME record exists"', () => {
    const { simulator } = buildSimulator(world, {
      zones: [
        {
          apex: 'example.com',
          provider: 'flexdns',
          records: [{ name: 'docs.example.com', type: 'ALIAS', value: host }],
        },
      ],
    });
    simulator.addDomain(project, 'docs.example.com');
    const domain = simulator.verify(project, 'docs.example.com');
    const dns = domain.ok ? domain.value.dns : undefined;
    expect(dns?.reason).toBe('cname_missing');
    expect(dns?.message).toMatch(/flatten/);
  });
});
