import { PETSTORE_SPEC } from '../../assets.js';
import { Random } from '../../core/random.js';
import { ToolError } from '../../core/tool-error.js';
import { loadDocument } from '../../openapi/load.js';
import { CONTRACT_DEFAULTS } from './defaults.js';
import { HttpClient, RunStopped } from '../transport/http-client.js';
import { buildPlan, type CheckPlan } from '../prepare/plan.js';
import { cleanUp } from './cleanup.js';
import { assertRunIsSound } from './preflight.js';
import { assertReachable } from './reachability.js';
import { assertCredentials } from './run-guards.js';
import { checksToRun, selectOperations, trafficChecks } from './run-selection.js';
import { summarise } from './run-summary.js';
import type { ContractOptions, RunInfo, RunListener, RunSummary } from './run-types.js';
import { Run } from './run.js';
import type { Check, ResponseCheck, RunSettings, ScenarioCheck } from '../types.js';

export type {
  CaseResult,
  CaseStatus,
  ContractOptions,
  RunInfo,
  RunListener,
  RunProgress,
  RunSummary,
} from './run-types.js';
export { CONTRACT_DEFAULTS };

/**
 * Runs the selected checks against a live deployment; listeners report, the result decides the
 * exit code. Once `runStart` was emitted, `runEnd` always follows (an interrupt, a crash of a
 * check, of the runner or of a listener), so reports are written whatever happens.
 */
export async function runContract(
  options: ContractOptions,
  listeners: readonly RunListener[] = [],
): Promise<RunSummary> {
  const started = Date.now();
  const seed = options.seed ?? Math.floor(Math.random() * 2 ** 31);
  const specPath = options.specPath ?? PETSTORE_SPEC;
  const { chosen, checks } = checksToRun(options);
  const plan = await planOf(options, specPath);
  const timeoutMs = options.timeoutMs ?? CONTRACT_DEFAULTS.timeoutMs;
  await assertReachable(options.baseUrl, {
    timeoutMs,
    headers: options.headers ?? {},
    waitForMs: options.waitForMs ?? 0,
    signal: options.signal,
  });
  const settings = settingsOf(options, `${started.toString(36)}${new Random(seed).word(3)}`);
  const info: RunInfo = {
    runId: settings.runId,
    seed,
    baseUrl: options.baseUrl,
    specFile: specPath,
    checks: checks.map((check) => check.name),
    operations: plan.operations.map((operation) => operation.id),
    readOnly: settings.readOnly,
  };
  const stopper = new AbortController();
  const client = clientOf(options, settings, timeoutMs, stopper.signal);
  const preflight = (): Promise<void> =>
    assertRunIsSound(plan, options.baseUrl, options.apiKey, (spec, baseUrl) =>
      (baseUrl === options.baseUrl
        ? client
        : clientOf({ ...options, baseUrl }, settings, timeoutMs, stopper.signal)
      ).send(spec),
    );
  const responseChecks = checks.filter((check): check is ResponseCheck => check.kind === 'response');
  const strict = options.strict ?? false;
  const limits = { strict, maxFailures: options.maxFailures ?? 0 };
  const run = new Run(plan, client, settings, seed, listeners, responseChecks, limits, stopper);
  const crash = await play(run, options, info, (check) => checks.includes(check), chosen, preflight);
  const summary = summarise(run, info, {
    started,
    strict,
    requireExercised: options.requireExercised ?? false,
    crash,
    requests: client.requestCount,
    checks,
  });
  const failures = await announceEnd(listeners, summary);
  if (crash !== undefined) throw crash;
  if (failures.length > 0) throw failures[0];
  return summary;
}

/** The document and the plan of the operations chosen; a document or choice with nothing to check is refused. */
async function planOf(options: ContractOptions, specPath: string): Promise<CheckPlan> {
  const spec = await loadDocument(specPath);
  for (const warning of spec.warnings) options.onLoadWarning?.(warning);
  if (spec.operations.length === 0)
    throw new ToolError(
      'the document has no operations to check (no paths: webhooks are not called)',
      spec.locate('#/paths'),
    );
  const plan = buildPlan(spec, selectOperations(options));
  if (plan.operations.length === 0) throw new ToolError(`no operation of ${specPath} matches --operation/--tag`);
  assertCredentials(plan, options.apiKey);
  return plan;
}

function settingsOf(options: ContractOptions, runId: string): RunSettings {
  return {
    apiKey: options.apiKey,
    readOnly: options.readOnly ?? false,
    maxExamples: options.maxExamples ?? CONTRACT_DEFAULTS.maxExamples,
    concurrency: options.concurrency ?? CONTRACT_DEFAULTS.concurrency,
    runId,
    namePrefix: `kennel-${runId}`,
    baseUrl: options.baseUrl,
  };
}

function clientOf(options: ContractOptions, settings: RunSettings, timeoutMs: number, signal: AbortSignal) {
  return new HttpClient({
    baseUrl: options.baseUrl,
    apiKey: options.apiKey,
    headers: options.headers ?? {},
    timeoutMs,
    concurrency: settings.concurrency,
    rateLimit: options.rateLimit ?? CONTRACT_DEFAULTS.rateLimit,
    maxRetries: 3,
    maxRetryAfterMs: 30_000,
    maxResponseBytes: options.maxResponseBytes ?? CONTRACT_DEFAULTS.maxResponseBytes,
    signal,
  });
}

/**
 * Announces the run, makes sure it can judge (preflight), plays discovery and the scenario checks, then reports the response checks;
 * an interrupt stops it where it is. Returns what crashed it, if anything did.
 */
async function play(
  run: Run,
  options: ContractOptions,
  info: RunInfo,
  isSelected: (check: ScenarioCheck) => boolean,
  chosen: readonly Check[],
  preflight: () => Promise<void>,
): Promise<unknown> {
  const interrupt = (): void =>
    run.stop(`interrupted${options.signal?.reason ? ` by ${String(options.signal.reason)}` : ''}`, 'interrupt');
  if (options.signal?.aborted) interrupt();
  options.signal?.addEventListener('abort', interrupt, { once: true });
  let crash: unknown;
  try {
    for (const listener of run.listeners) listener.runStart?.(info);
    // Before anything is judged: is the verdict going to be about the deployment, not the run?
    // If not, no case is reported: the run says why it could not judge, and nothing else.
    const unsound = await preflight().then(
      () => undefined,
      (error: unknown) => {
        if (error instanceof ToolError) return error;
        throw error;
      },
    );
    if (unsound) return unsound;
    const scenarios = trafficChecks(chosen, options.excludeChecks ?? [], options.extraChecks ?? []);
    run.stepsTotal = scenarios.length * run.plan.operations.length;
    await run.discover();
    for (const check of scenarios) await run.scenario(check, isSelected(check));
    run.enter('cleanup');
    run.cleanup = await cleanUp(run.plan, run.createdItems, (spec) => run.client.send(spec));
  } catch (error) {
    if (!(error instanceof RunStopped)) crash = error;
  } finally {
    options.signal?.removeEventListener('abort', interrupt);
  }
  try {
    run.reportResponses();
  } catch (error) {
    crash ??= error; // a listener failing on a case: runEnd still follows
  }
  return crash;
}

/** Hands the summary to every listener, each even when one before it failed; returns their failures. */
async function announceEnd(listeners: readonly RunListener[], summary: RunSummary): Promise<unknown[]> {
  const failures: unknown[] = [];
  for (const listener of listeners) {
    try {
      await listener.runEnd?.(summary);
    } catch (error) {
      failures.push(error);
    }
  }
  return failures;
}
