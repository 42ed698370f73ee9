import { describe, expect, it } from 'vitest';
import { loadWorld } from '../../src/domains/scenario/scenario-file.js';
import { buildSimulator } from '../../src/domains/sim/world-config.js';

// Moving a domain between projects (issue 22): what moves, what stays, and rule 1 on the target.
const world = await loadWorld();
const project = world.project.id;

function withDomain() {
  const { simulator } = buildSimulator(world, { zones: [{ apex: 'example.com', provider: 'laxdns' }] });
  simulator.addDomain(project, 'docs.example.com');
  simulator.addDomain(project, 'www.example.com');
  simulator.setPrimary(project, 'docs.example.com');
  simulator.addRedirect(project, { from: 'www.example.com', to: 'docs.example.com', status: 301 });
  return simulator;
}

describe('moveDomain', () => {
  it('refuses a target project that fails rule 1, and leaves the domain where it was', () => {
    const simulator = withDomain();
    simulator.addProject({ id: 'free-docs', plan: 'free', deployed: true });
    expect(simulator.moveDomain(project, 'docs.example.com', 'free-docs')).toMatchObject({
      ok: false,
      code: 'plan_required',
    });
    expect(simulator.domain(project, 'docs.example.com')).toBeDefined();
  });

  it('leaves the primary role and the redirects to it behind', () => {
    const simulator = withDomain();
    simulator.addProject({ id: 'other-docs', plan: 'pro', deployed: true });
    expect(simulator.moveDomain(project, 'docs.example.com', 'other-docs').ok).toBe(true);
    const source = simulator.project(project);
    expect(source).toMatchObject({ ok: true, value: { primary: undefined, redirects: [] } });
    expect(simulator.domain('other-docs', 'docs.example.com')).toBeDefined();
    const target = simulator.project('other-docs');
    expect(
      target.ok &&
        simulator.requiredRecords(target.value, simulator.domain('other-docs', 'docs.example.com')!)[0]!.value,
    ).toBe(`other-docs.${world.platform.domain}`);
  });
});
