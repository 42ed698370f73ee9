import { describe, expect, it } from 'vitest';
import { loadWorld } from '../../src/domains/scenario/scenario-file.js';
import { buildSimulator } from '../../src/domains/sim/world-config.js';

// The simulator is a façade (issue 21): callers change the world through its operations and only
// read what it hands out. The type errors below are part of the test: `npm run typecheck` fails
// if any of them becomes writable again.
const world = await loadWorld();
const project = world.project.id;

function simulator() {
  const host = `${project}.${world.platform.domain}`;
  const records = [{ name: 'docs.example.com', type: 'CNAME' as const, value: host }];
  const built = buildSimulator(world, { zones: [{ apex: 'example.com', provider: 'laxdns', records }] });
  built.simulator.addDomain(project, 'docs.example.com');
  return built.simulator;
}

describe('the DomainSimulator façade', () => {
  it('has no public state but its fixed facts: the rest is private to its parts', () => {
    expect(Object.keys(simulator()).sort()).toEqual(['gateLost', 'platform']);
  });

  it('hands out read-only views of projects, zones, history and the query log', () => {
    const sim = simulator();
    const found = sim.project(project);
    if (!found.ok) throw new Error(found.message);
    // @ts-expect-error a project's domains are changed through addDomain, removeDomain and moveDomain
    expect(() => found.value.domains.clear).not.toThrow();
    // @ts-expect-error redirects are changed through addRedirect and removeRedirect
    expect(() => found.value.redirects.push).not.toThrow();
    // @ts-expect-error records are saved through addRecord, which applies the providers' rules
    expect(() => sim.zones.addRecord).not.toThrow();
    // @ts-expect-error the history is the simulator's own log
    expect(() => sim.history.add).not.toThrow();
    // @ts-expect-error the query log is written by the resolvers only
    expect(() => sim.queryLog.add).not.toThrow();
    // @ts-expect-error the CA ledger counts what the CA issues
    expect(() => sim.caLedger.issued).not.toThrow();
  });

  it('reads a domain name as the dashboard does, and changes zones through its operations', () => {
    const sim = simulator();
    expect(sim.domain(project, 'Docs.Example.COM.')?.name).toBe('docs.example.com');
    expect(sim.domain(project, 'www.example.com')).toBeUndefined();
    expect(sim.domain('no-such-project', 'docs.example.com')).toBeUndefined();
    sim.setZoneFailing('example.com', ['A']);
    expect([...sim.zones.zoneFor('docs.example.com')!.failing]).toEqual(['A']);
    sim.setZoneDnssec('example.com', 'signed');
    expect(sim.zones.zoneFor('example.com')!.dnssec).toBe('signed');
    expect(sim.setRegistrationLapsed('docs.example.com', true)).toMatchObject({ ok: false, code: 'no_such_zone' });
    expect(sim.setRegistrationLapsed(world.platform.domain, true)).toMatchObject({ ok: false, code: 'platform_zone' });
    expect(sim.query('public', 'docs.example.com', 'CNAME')).toMatchObject({ ok: true, value: { rcode: 'NOERROR' } });
    expect(sim.setRegistrationLapsed('example.com', true)).toEqual({ ok: true, value: null });
    // Another resolver, with nothing cached yet: the registry no longer delegates example.com.
    expect(sim.query('platform', 'docs.example.com', 'CNAME')).toMatchObject({
      ok: true,
      value: { rcode: 'NXDOMAIN' },
    });
  });
});
