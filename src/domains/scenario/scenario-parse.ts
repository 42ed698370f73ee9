import { MAX_DURATION_MS, readDuration } from '../../core/duration.js';
import type { QueryType, RecordType } from '../sim/dns-types.js';
import type { Plan } from '../sim/model.js';
import type { Action, Expectation, Scenario, Step } from './scenario.js';
import type { Given, GivenRecord } from '../sim/world-config.js';

/** Step keys that are actions (every other key of a step is `name` or `expect`). */
export const ACTIONS = [
  'add-domain',
  'verify',
  'reverify',
  'remove-domain',
  'set-primary',
  'check',
  'add-record',
  'remove-record',
  'advance',
  'dig',
  'serve',
  'set-plan',
  'set-deployed',
  'add-redirect',
  'remove-redirect',
  'fail-dns',
  'heal-dns',
] as const;

/** A problem in a scenario document, located by JSON pointer. */
export interface ScenarioProblem {
  pointer: string;
  message: string;
}

type RawStep = Record<string, unknown> & { name?: string; expect?: Expectation };

function action(key: (typeof ACTIONS)[number], value: unknown): Action | string {
  switch (key) {
    case 'add-record':
      return { kind: 'add-record', record: value as GivenRecord };
    case 'remove-record': {
      const match = value as { name: string; type?: RecordType; value?: unknown };
      return { kind: 'remove-record', name: match.name, type: match.type, value: match.value };
    }
    case 'advance': {
      const duration = readDuration(value);
      return duration.ok ? { kind: 'advance', ms: duration.ms, text: value as string } : duration.reason;
    }
    case 'dig': {
      const question = value as { name: string; type: QueryType; resolver?: string };
      return { kind: 'dig', name: question.name, type: question.type, resolver: question.resolver ?? 'public' };
    }
    case 'serve': {
      let url: URL;
      try {
        url = new URL(value as string);
      } catch {
        return `${JSON.stringify(value)} is not a URL`;
      }
      return {
        kind: 'serve',
        host: url.hostname,
        path: `${url.pathname}${url.search}`,
        scheme: url.protocol === 'https:' ? 'https' : 'http',
      };
    }
    case 'set-plan':
      return { kind: 'set-plan', plan: value as Plan };
    case 'set-deployed':
      return { kind: 'set-deployed', deployed: value as boolean };
    case 'add-redirect': {
      const redirect = value as { from: string; to: string; status?: number };
      return { kind: 'add-redirect', from: redirect.from, to: redirect.to, status: redirect.status ?? 301 };
    }
    case 'remove-redirect':
      return { kind: 'remove-redirect', from: value as string };
    case 'fail-dns': {
      const failure = value as { zone: string; types?: (QueryType | '*')[] };
      return { kind: 'fail-dns', zone: failure.zone, types: failure.types ?? ['*'] };
    }
    case 'heal-dns':
      return { kind: 'heal-dns', zone: value as string };
    default:
      return { kind: key, domain: value as string };
  }
}

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
  const built = action(key, raw[key]);
  if (typeof built === 'string') {
    problems.push({ pointer: `${pointer}/${key}`, message: built });
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
