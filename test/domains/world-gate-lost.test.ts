import { describe, expect, it } from 'vitest';
import { loadWorld } from '../../src/domains/scenario/scenario-file.js';
import { buildSimulator, worldProblems } from '../../src/domains/sim/world-config.js';

// Rule 1 after the fact is a world option (gateLost); scenarios/gate-lost-*.yaml play each value.
const world = await loadWorld();

describe('gateLost in a world file', () => {
  it('fixtures/world.json states the default, keep-serving', () => {
    expect(world.gateLost).toBe('keep-serving');
    expect(buildSimulator({ ...world, gateLost: undefined }).simulator.gateLost).toBe('keep-serving');
  });

  it('another value is refused with its pointer', () => {
    expect(worldProblems({ ...world, gateLost: 'suspend' })).toEqual([
      { pointer: '/gateLost', message: 'gateLost must be one of: keep-serving, stop-serving, remove-domains' },
    ]);
  });

  it('a scenario given overrides the world', () => {
    expect(buildSimulator(world, { gateLost: 'remove-domains' }).simulator.gateLost).toBe('remove-domains');
  });
});
