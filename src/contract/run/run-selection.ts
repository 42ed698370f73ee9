import type { Operation } from '../../openapi/operations.js';
import { notAServerError } from '../checks/not-a-server-error.js';
import { closestNames } from '../../core/suggest.js';
import { ToolError } from '../../core/tool-error.js';
import { ALL_CHECKS, SCENARIO_CHECKS, selectChecks } from '../checks/registry.js';
import type { ContractOptions } from './run-types.js';
import type { Check, ScenarioCheck } from '../types.js';

function matchesOperation(operation: Operation, names: readonly string[]): boolean {
  const label = `${operation.method.toUpperCase()} ${operation.path}`;
  return names.some((name) => name === operation.operationId || name.toUpperCase() === label.toUpperCase());
}

/** The operations `--operation` and `--tag` choose (all when neither is given). */
export function selectOperations(options: ContractOptions): (operation: Operation) => boolean {
  return (operation) =>
    (!options.operations?.length || matchesOperation(operation, options.operations)) &&
    (!options.tags?.length || operation.tags.some((tag) => options.tags!.includes(tag)));
}

/** A 5xx is a finding whichever check's request met it: not-a-server-error judges every run unless excluded. */
function withServerErrors(selected: readonly Check[], excluded: readonly string[]): Check[] {
  if (selected.includes(notAServerError) || excluded.includes(notAServerError.name)) return [...selected];
  return [notAServerError, ...selected];
}

/**
 * Scenario checks to run: the selected ones, or, when any response check is selected, every one not
 * explicitly excluded, because response checks judge the traffic scenario checks make.
 */
export function trafficChecks(
  selected: readonly Check[],
  excluded: readonly string[],
  extra: readonly Check[],
): ScenarioCheck[] {
  const wantsTraffic = selected.some((check) => check.kind === 'response');
  const scenarios = [...SCENARIO_CHECKS, ...extra.filter((check): check is ScenarioCheck => check.kind === 'scenario')];
  return scenarios.filter((check) => selected.includes(check) || (wantsTraffic && !excluded.includes(check.name)));
}

/** What `--check` takes for every check. */
export const ALL = 'all';

/** "unknown check …", with the closest known names for each mistyped one. */
function unknownChecks(unknown: readonly string[]): string {
  const known = ALL_CHECKS.map((check) => check.name);
  const named = unknown.map((name) => {
    const close = closestNames(name, known);
    return close.length > 0 ? `${JSON.stringify(name)} (did you mean ${close.join(' or ')}?)` : JSON.stringify(name);
  });
  return `unknown check ${named.join(', ')}; run \`kennel check --list-checks\` to see them`;
}

/**
 * The checks `--check` and `--exclude-check` choose (`chosen`: they decide the traffic) and the
 * checks that judge it (`checks`: not-a-server-error added unless excluded); an unknown name is refused.
 */
export function checksToRun(options: ContractOptions): { chosen: Check[]; checks: Check[] } {
  // `all` is every check, as with no --check at all (the spelling other checkers use).
  const include = options.checks?.includes(ALL) ? [] : (options.checks ?? []);
  const selected = selectChecks(include, options.excludeChecks ?? []);
  if (selected.unknown.length > 0) throw new ToolError(unknownChecks(selected.unknown));
  const extra = options.extraChecks ?? [];
  return {
    chosen: [...selected.checks, ...extra],
    checks: [...withServerErrors(selected.checks, options.excludeChecks ?? []), ...extra],
  };
}
