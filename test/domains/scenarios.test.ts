import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { runScenario } from '../../src/domains/scenario/scenario.js';
import { loadScenarioFile, loadWorld, SCENARIO_DIR } from '../../src/domains/scenario/scenario-file.js';
import { timeline } from '../../src/domains/scenario/scenario-report.js';

// Every file in scenarios/ is a test: adding a QA case needs no code.
const world = await loadWorld();
const files = readdirSync(SCENARIO_DIR)
  .filter((name) => name.endsWith('.yaml'))
  .sort();

describe('scenarios/', () => {
  it('holds at least 20 scenarios', () => {
    expect(files.length).toBeGreaterThanOrEqual(20);
  });

  it.each(files)('%s passes', async (name) => {
    const scenario = await loadScenarioFile(`${SCENARIO_DIR}/${name}`);
    const result = runScenario(scenario, world);
    expect(result.passed, timeline(result)).toBe(true);
    expect(result.steps.every((step) => step.passed)).toBe(true);
  });
});
