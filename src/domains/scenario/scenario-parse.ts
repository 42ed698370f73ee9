import { MAX_DURATION_MS, readDuration } from '../../core/duration.js';
import type { Expectation, Scenario, Step } from './scenario.js';
import type { Given } from '../sim/world-config.js';
import { actionDefinition, ACTIONS } from './actions/index.js';

/** A problem in a scenario document, located by JSON pointer. */
export interface ScenarioProblem {
  pointer: string;
  message: string;
}

type RawStep = Record<string, unknown> & { name?: string; expect?: Expectation };

function step(
  raw: RawStep,
  index: number,
  lineOf: (pointer: string) => number | undefined,
  problems: ScenarioProblem[],
): Step | undefined {
  const pointer = `#/steps/${index}`;
  const keys = ACTIONS.filter((key) => key in raw);
  if (keys.length !== 1) {
    const message =
      keys.length === 0
        ? `step ${index + 1} has no action; use one of: ${ACTIONS.join(', ')}`
        : `step ${index + 1} has ${keys.length} actions (${keys.join(', ')}); give each its own step`;
    problems.push({ pointer, message });
    return undefined;
  }
  const key = keys[0]!;
  const built = actionDefinition(key)!.parse(raw[key]);
  if ('problem' in built) {
    problems.push({ pointer: `${pointer}/${key}`, message: built.problem });
    return undefined;
  }
  return { name: raw.name, line: lineOf(pointer), action: built, expect: raw.expect };
}

/** A scenario covers at most MAX_DURATION_MS of virtual time, so its clock stays far from any date limit. */
function spanProblem(raw: readonly RawStep[]): ScenarioProblem | undefined {
  let span = 0;
  for (const [index, step] of raw.entries()) {
    const duration = Object.hasOwn(step, 'advance') ? readDuration(step.advance) : undefined;
    if (!duration?.ok) continue;
    span += duration.ms;
    if (span > MAX_DURATION_MS)
      return {
        pointer: `#/steps/${index}/advance`,
        message: `the steps advance the clock by more than ${MAX_DURATION_MS / 86_400_000}d (10 years) in all`,
      };
  }
  return undefined;
}

/** sameSerialAs / newSerialSince must name an earlier step (in anyOf readings too). */
function serialReferenceProblems(
  expect: Expectation | undefined,
  earlier: ReadonlySet<string>,
  pointer: string,
): ScenarioProblem[] {
  if (!expect) return [];
  const problems = (expect.anyOf ?? []).flatMap((reading, index) =>
    serialReferenceProblems(reading, earlier, `${pointer}/anyOf/${index}`),
  );
  for (const key of ['sameSerialAs', 'newSerialSince'] as const) {
    const step = expect.domain?.[key];
    if (step !== undefined && !earlier.has(step))
      problems.push({
        pointer: `${pointer}/domain/${key}`,
        message: `${key} names ${JSON.stringify(step)}, which is not the name of an earlier step`,
      });
  }
  return problems;
}

/**
 * Turns a schema-valid scenario document into a Scenario, checking what the schema cannot say:
 * one action per step, durations, URLs, unique step names.
 */
export function scenarioFrom(
  value: unknown,
  name: string,
  lineOf: (pointer: string) => number | undefined,
): { scenario: Scenario; problems: ScenarioProblem[] } {
  const document = value as {
    name?: string;
    description: string;
    rules?: number[];
    tags?: string[];
    given?: Given;
    steps: RawStep[];
  };
  const problems: ScenarioProblem[] = [];
  const steps = document.steps
    .map((raw, index) => step(raw, index, lineOf, problems))
    .filter((item): item is Step => item !== undefined);
  const span = spanProblem(document.steps);
  if (span) problems.push(span);
  const seen = new Set<string>();
  document.steps.forEach((raw, index) => {
    problems.push(...serialReferenceProblems(raw.expect, seen, `#/steps/${index}/expect`));
    if (raw.name === undefined) return;
    if (seen.has(raw.name))
      problems.push({
        pointer: `#/steps/${index}/name`,
        message: `step name ${JSON.stringify(raw.name)} is used twice`,
      });
    seen.add(raw.name);
  });
  return {
    scenario: {
      name: document.name ?? name,
      description: document.description,
      rules: document.rules ?? [],
      tags: document.tags ?? [],
      given: document.given ?? {},
      steps,
    },
    problems,
  };
}
