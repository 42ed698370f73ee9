import { ToolError } from '../../core/tool-error.js';
import { describeCrash } from './case-record.js';
import type { CleanupReport } from './cleanup.js';
import type { CoverageTracker } from '../checks/coverage.js';
import type { CheckPlan } from '../prepare/plan.js';
import { basePathHint } from './reachability.js';
import { nothingSentReason } from './run-guards.js';
import type { CaseResult, RunInfo, RunSummary } from './run-types.js';
import type { Check } from '../types.js';

/** Why a run ended early: a bound the user set (`--max-failures`), or an interrupt. */
export type StopKind = 'limit' | 'interrupt';

/** What a finished run knows that its summary reports. */
export interface FinishedRun {
  readonly plan: CheckPlan;
  readonly cases: readonly CaseResult[];
  readonly coverage: CoverageTracker;
  readonly stopped: string | undefined;
  readonly stopKind: StopKind | undefined;
  readonly only404: boolean;
  readonly cleanup?: CleanupReport | undefined;
  /** Requests sent to the selected operations (discovery may also read lists that feed them). */
  readonly selectedRequests: number;
}

/** The run's summary and exit code: 2 when it could not run or was interrupted, 1 on findings, else 0. */
export function summarise(
  run: FinishedRun,
  info: RunInfo,
  context: {
    started: number;
    strict: boolean;
    requireExercised?: boolean;
    crash: unknown;
    requests: number;
    checks: readonly Check[];
  },
): RunSummary {
  const findings = run.cases.flatMap((result) => result.failures);
  const omitted = (severity: 'error' | 'warning') =>
    run.cases.reduce((sum, result) => sum + (result.omitted?.[severity] ?? 0), 0);
  const errors = findings.filter((item) => item.severity === 'error').length + omitted('error');
  const warnings = findings.filter((item) => item.severity === 'warning').length + omitted('warning');
  const errored = run.cases.filter((result) => result.status === 'errored').length;
  const unexercised = run.cases.filter((result) => result.status === 'unexercised').length;
  const failing = errors > 0 || (context.strict && warnings > 0);
  const stopped =
    context.crash instanceof ToolError
      ? `could not judge: ${context.crash.message}`
      : context.crash !== undefined
        ? `kennel failed: ${describeCrash(context.crash)}`
        : (run.stopped ?? undefined);
  const interrupted = context.crash !== undefined || run.stopKind === 'interrupt';
  const idle = run.selectedRequests === 0 && !interrupted && run.stopped === undefined;
  const hint = basePathHint(info.baseUrl, run.plan.document.basePath, run.only404);
  return {
    ...info,
    startedAt: new Date(context.started).toISOString(),
    durationMs: Date.now() - context.started,
    requests: context.requests,
    cases: orderCases(run.cases, run.plan, context.checks),
    errors,
    warnings,
    errored,
    unexercised,
    failureCount: run.cases.reduce((sum, result) => sum + (result.failureCount ?? 0), 0),
    strict: context.strict,
    ...(context.requireExercised ? { requireExercised: true } : {}),
    ...(stopped !== undefined ? { stopped } : {}),
    ...(hint ? { hints: [hint] } : {}),
    ...(run.cleanup ? { cleanup: run.cleanup } : {}),
    coverage: run.coverage.of(run.plan.operations),
    ...(idle ? { nothingSent: nothingSentReason(run.cases) } : {}),
    // A check that crashed leaves the verdict incomplete; one that judged nothing is listed and the
    // verdict says "conforms where exercised", failing the run only with --require-exercised
    // (docs/contract-checks.md, "Not exercised").
    exitCode:
      interrupted || idle ? 2 : failing ? 1 : errored > 0 || (unexercised > 0 && context.requireExercised) ? 2 : 0,
  };
}

/** Report order: by operation as the document lists them, then by check as the registry lists them. */
function orderCases(cases: readonly CaseResult[], plan: CheckPlan, checks: readonly Check[]): CaseResult[] {
  const operationIndex = new Map(plan.operations.map((operation, index) => [operation.id, index]));
  const checkIndex = new Map(checks.map((check, index) => [check.name, index]));
  return [...cases].sort(
    (a, b) =>
      operationIndex.get(a.operationId)! - operationIndex.get(b.operationId)! ||
      checkIndex.get(a.check)! - checkIndex.get(b.check)!,
  );
}
