import path from 'node:path';
import { ToolError } from '../../core/tool-error.js';
import { describeAction } from '../scenario/actions/index.js';
import { ScenarioPlayer, type Scenario, type StepResult } from '../scenario/scenario.js';
import { loadScenarioFile, scenarioFiles, scenarioFromText } from '../scenario/scenario-file.js';
import type { DomainSimulator } from '../sim/domain-service.js';
import type { SimulatorOrigin, WorldConfig } from '../sim/world-config.js';

/** Outcome of loading a scenario into the live world. */
export type ScenarioLoadResult =
  | { ok: true; played: StepResult[]; passed: boolean; description: string; total: number }
  | { ok: false; code: string; message: string };

type Refusal = Extract<ScenarioLoadResult, { ok: false }>;

/** A scenario read for the live world, or why it cannot be. */
export type ScenarioRead = { ok: true; scenario: Scenario } | Refusal;

/** A bundled scenario as the dashboard's picker lists it. */
export interface ScenarioSummary {
  name: string;
  description: string;
  tags: string[];
  steps: { index: number; name?: string; action: string }[];
  /** Why the file cannot be played (file:line), when it is broken. */
  error?: string;
}

/** How far to play a scenario: up to the step named `upTo`, and at most `steps` steps. */
export interface PlayLimit {
  upTo?: string;
  steps?: number;
}

/** The picker's list of the scenarios in `dir`. */
export async function readScenarioSummaries(dir: string): Promise<ScenarioSummary[]> {
  const files = await scenarioFiles([dir]);
  return Promise.all(
    files.map(async (file): Promise<ScenarioSummary> => {
      let scenario;
      try {
        scenario = await loadScenarioFile(file);
      } catch (error) {
        // One broken file must not hide the others from the picker: it is listed with its reason.
        if (!(error instanceof ToolError)) throw error;
        const name = path.basename(file, path.extname(file));
        return { name, description: '', tags: [], steps: [], error: error.message };
      }
      return {
        name: scenario.name,
        description: scenario.description,
        tags: scenario.tags,
        steps: scenario.steps.map((step, index) => ({
          index,
          ...(step.name ? { name: step.name } : {}),
          action: describeAction(step.action),
        })),
      };
    }),
  );
}

/** The scenario `<dir>/<name>.yaml`; a name that is not a plain file name is not found. */
export async function readNamedScenario(dir: string, name: string): Promise<ScenarioRead> {
  if (!/^[a-z0-9][a-z0-9-]*$/.test(name))
    return { ok: false, code: 'scenario_not_found', message: `no scenario named ${JSON.stringify(name)}` };
  try {
    return { ok: true, scenario: await loadScenarioFile(path.join(dir, `${name}.yaml`)) };
  } catch (error) {
    const missing = error instanceof ToolError && /ENOENT/.test(error.message);
    return {
      ok: false,
      code: missing ? 'scenario_not_found' : 'invalid_scenario',
      message: missing ? `no scenario named ${name}` : (error as Error).message,
    };
  }
}

/** A QA engineer's own scenario, YAML or JSON text validated as a file is (problems name `source:line`). */
export async function readScenarioText(source: string, name: string): Promise<ScenarioRead> {
  try {
    return { ok: true, scenario: await scenarioFromText(source, 'source', name) };
  } catch (error) {
    if (!(error instanceof ToolError)) throw error;
    return { ok: false, code: 'invalid_scenario', message: error.message };
  }
}

/**
 * Plays `scenario` in a world of its own, up to and including the step named `upTo`; the
 * simulator it leaves is the one the live world swaps in.
 */
export function playScenario(
  scenario: Scenario,
  config: WorldConfig,
  origin: SimulatorOrigin & { start: number; firstRecordId: number },
  { upTo, steps = Infinity }: PlayLimit,
): { result: ScenarioLoadResult; simulator?: DomainSimulator } {
  if (upTo !== undefined && !scenario.steps.some((step) => step.name === upTo))
    return { result: missingStep(scenario, upTo) };
  const player = new ScenarioPlayer(scenario, config, origin);
  const played: StepResult[] = [];
  while (!player.done && played.length < steps) {
    const result = player.step();
    played.push(result);
    if (upTo !== undefined && result.name === upTo) break;
  }
  const passed = player.setupProblems.length === 0 && played.every((step) => step.passed);
  return {
    result: { ok: true, played, passed, description: scenario.description, total: scenario.steps.length },
    simulator: player.simulator,
  };
}

function missingStep(scenario: Scenario, upTo: string): Refusal {
  const named = scenario.steps.flatMap((step) => (step.name ? [step.name] : [])).join(', ') || 'none';
  return {
    ok: false,
    code: 'step_not_found',
    message: `scenario ${scenario.name} has no step named ${JSON.stringify(upTo)}; named steps: ${named}`,
  };
}
