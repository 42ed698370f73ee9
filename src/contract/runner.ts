import { PETSTORE_SPEC } from '../assets.js';
import { Random } from '../core/random.js';
import { ToolError } from '../core/tool-error.js';
import { loadDocument } from '../openapi/load.js';
import type { Operation } from '../openapi/operations.js';
import { notAServerError } from './checks/not-a-server-error.js';
import { learn } from './checks/support.js';
import { CoverageTracker } from './coverage.js';
import { CONTRACT_DEFAULTS } from './defaults.js';
import { FindingSet } from './findings.js';
import { HttpClient, RunStopped } from './http-client.js';
import { buildPlan, type Plan, type PlannedOperation } from './plan.js';
import { assertReachable, basePathHint } from './reachability.js';
import { assertCredentials, nothingSentReason } from './run-guards.js';
import { SCENARIO_CHECKS, selectChecks } from './registry.js';
import type { CaseResult, CaseStatus, ContractOptions, RunInfo, RunListener, RunSummary } from './run-types.js';
import type {
  Check,
  CheckContext,
  CheckFailure,
  Exchange,
  Finding,
  ResponseCheck,
  RunSettings,
  RunState,
  ScenarioCheck,
} from './types.js';

export type { CaseResult, CaseStatus, ContractOptions, RunInfo, RunListener, RunSummary } from './run-types.js';
export { CONTRACT_DEFAULTS };

function matchesOperation(operation: Operation, names: readonly string[]): boolean {
  const label = `${operation.method.toUpperCase()} ${operation.path}`;
  return names.some((name) => name === operation.operationId || name.toUpperCase() === label.toUpperCase());
}

function selectOperations(options: ContractOptions): (operation: Operation) => boolean {
  return (operation) =>
    (!options.operations?.length || matchesOperation(operation, options.operations)) &&
    (!options.tags?.length || operation.tags.some((tag) => options.tags!.includes(tag)));
}

/** A seed per check and operation, so a --check subset generates the same data as the full run. */
function derivedSeed(seed: number, ...parts: string[]): number {
  let hash = seed >>> 0;
  for (const char of parts.join('\u0000')) hash = Math.imul(hash ^ char.charCodeAt(0), 16777619) >>> 0;
  return hash;
}

/** `TypeError: x is undefined (at src/contract/checks/foo.ts:12:7)`: enough to file the bug. */
function describeCrash(error: unknown): string {
  const text = error instanceof Error ? `${error.name}: ${error.message}` : `thrown: ${String(error)}`;
  const frame =
    error instanceof Error ? /\(?((?:file:\/\/)?[^\s()]+:\d+:\d+)\)?/.exec(error.stack?.split('\n')[1] ?? '') : null;
  return frame ? `${text} (at ${frame[1]})` : text;
}

/** One check on one operation while the run goes: findings as they come, time spent, a crash. */
class CaseRecord {
  readonly findings = new FindingSet();
  durationMs = 0;
  error: string | undefined;
  skipReason: string | undefined;
  constructor(
    readonly check: Check,
    readonly operation: PlannedOperation,
  ) {}

  result(): CaseResult {
    const failures = this.findings.findings;
    const errors = failures.some((item) => item.severity === 'error') || this.findings.omitted.error > 0;
    const status: CaseStatus =
      this.error !== undefined
        ? 'errored'
        : this.skipReason !== undefined
          ? 'skipped'
          : errors
            ? 'failed'
            : failures.length > 0
              ? 'warned'
              : 'passed';
    const omitted = this.findings.omitted;
    return {
      operationId: this.operation.id,
      method: this.operation.operation.method.toUpperCase(),
      path: this.operation.operation.path,
      check: this.check.name,
      description: this.check.description,
      status,
      failures: [...failures].sort((a, b) => Number(a.severity === 'warning') - Number(b.severity === 'warning')),
      failureCount: this.findings.failures,
      ...(omitted.error + omitted.warning > 0 ? { omitted: { ...omitted } } : {}),
      ...(this.skipReason !== undefined && this.error === undefined ? { skipReason: this.skipReason } : {}),
      ...(this.error !== undefined ? { error: this.error } : {}),
      durationMs: Math.round(this.durationMs),
    };
  }
}

/** Why a run ended early: a bound the user set (`--max-failures`), or an interrupt. */
type StopKind = 'limit' | 'interrupt';

class Run {
  readonly state: RunState = { created: new Map(), observed: new Map(), knownIds: new Map() };
  readonly cases: CaseResult[] = [];
  readonly coverage = new CoverageTracker();
  stopKind: StopKind | undefined;
  /** Response checks' cases, filled as exchanges arrive, reported at the end. */
  readonly #judged = new Map<string, CaseRecord>();
  /** Operations that got an answer other than 404 / any answer at all (for the base-path hint). */
  readonly #answeredOtherThan404 = new Set<string>();
  #answered = 0;
  #failing = 0;

  constructor(
    readonly plan: Plan,
    readonly client: HttpClient,
    readonly settings: RunSettings,
    readonly seed: number,
    readonly listeners: readonly RunListener[],
    readonly responseChecks: readonly ResponseCheck[],
    readonly options: { strict: boolean; maxFailures: number },
    readonly stopper: AbortController,
  ) {}

  get stopped(): string | undefined {
    return this.stopper.signal.aborted ? String(this.stopper.signal.reason) : undefined;
  }

  /** Ends the run at once: requests in flight are abandoned, no check starts, reports are still made. */
  stop(reason: string, kind: StopKind): void {
    if (this.stopper.signal.aborted) return;
    this.stopKind = kind;
    this.stopper.abort(reason);
  }

  /** Sends a request and judges the answer at once; only what findings need is kept. */
  readonly send = async (request: Parameters<HttpClient['send']>[0]): Promise<Exchange> => {
    const exchange = await this.client.send(request);
    this.coverage.record(exchange.operation, exchange.response?.status);
    if (exchange.response) {
      this.#answered += 1;
      if (exchange.response.status !== 404) this.#answeredOtherThan404.add(exchange.operation.id);
    }
    for (const check of this.responseChecks) {
      const record = this.#judgedCase(check, exchange.operation);
      if (record.error !== undefined) continue;
      const started = performance.now();
      try {
        for (const item of check.inspect(this.plan, exchange)) this.#add(record, item);
      } catch (error) {
        record.error = describeCrash(error);
        this.#count(1);
      } finally {
        record.durationMs += performance.now() - started;
      }
    }
    return exchange;
  };

  #judgedCase(check: ResponseCheck, operation: PlannedOperation): CaseRecord {
    const key = `${check.name}\u0000${operation.id}`;
    let record = this.#judged.get(key);
    if (!record) this.#judged.set(key, (record = new CaseRecord(check, operation)));
    return record;
  }

  #add(record: CaseRecord, failure: CheckFailure): Finding | undefined {
    const finding = record.findings.add({ ...failure, operationId: record.operation.id });
    if (finding && (finding.severity === 'error' || this.options.strict)) this.#count(1);
    return finding;
  }

  /** Counts findings that fail the run; stops it at `--max-failures`. */
  #count(findings: number): void {
    this.#failing += findings;
    const max = this.options.maxFailures;
    if (max > 0 && this.#failing >= max)
      this.stop(
        max === 1
          ? 'stopped at the first failure (--exitfirst)'
          : `stopped after ${max} failures (--max-failures ${max})`,
        'limit',
      );
  }

  context(check: Check, operation: PlannedOperation): CheckContext {
    return {
      plan: this.plan,
      operation,
      send: this.send,
      random: new Random(derivedSeed(this.seed, check.name, operation.id)),
      state: this.state,
      settings: this.settings,
    };
  }

  #emit(record: CaseRecord): void {
    const result = record.result();
    this.cases.push(result);
    for (const listener of this.listeners) listener.caseResult?.(result);
  }

  /** Reads each list once first: existing ids and foreign-key values feed the generators. */
  async discover(): Promise<void> {
    for (const operation of this.plan.operations) {
      if (operation.role !== 'list' || operation.successStatuses.length === 0) continue;
      const exchange = await this.send({ operation, intent: 'valid', purpose: `${operation.id} (discovery)` });
      const body = exchange.response?.json?.ok ? exchange.response.json.value : undefined;
      if (Array.isArray(body)) learn(this.state, operation.collection, operation.idProperty, body);
    }
  }

  /** Runs a scenario check on every operation; `report` false runs it only for the traffic it makes. */
  async scenario(check: ScenarioCheck, report: boolean): Promise<void> {
    for (const operation of this.plan.operations) {
      const record = new CaseRecord(check, operation);
      const started = performance.now();
      try {
        if (this.stopped !== undefined) throw new RunStopped(this.stopped);
        record.skipReason = check.skipReason(operation, this.plan, this.settings);
        if (record.skipReason === undefined) {
          const outcome = await check.run(this.context(check, operation));
          record.skipReason = outcome.skipped;
          if (report) for (const item of outcome.failures) this.#add(record, item);
        }
      } catch (error) {
        if (error instanceof RunStopped || this.stopped !== undefined) record.skipReason = `not run: ${this.stopped}`;
        else {
          record.error = describeCrash(error);
          if (report) this.#count(1);
        }
      }
      record.durationMs = performance.now() - started;
      if (report) this.#emit(record);
    }
  }

  /** The response checks' cases, from what they judged while the run went. */
  reportResponses(): void {
    for (const check of this.responseChecks) {
      for (const operation of this.plan.operations) {
        const record = this.#judged.get(`${check.name}\u0000${operation.id}`) ?? new CaseRecord(check, operation);
        if (!this.#judged.has(`${check.name}\u0000${operation.id}`))
          record.skipReason = this.stopped ? `not run: ${this.stopped}` : 'no request reached this operation';
        this.#emit(record);
      }
      // Operations outside --operation/--tag still answer the read-backs checks make: judged too.
      const planned = new Set(this.plan.operations.map((operation) => operation.id));
      for (const record of this.#judged.values())
        if (record.check === check && !planned.has(record.operation.id)) this.#emit(record);
    }
  }

  /** True when operations were answered and every answer was a 404. */
  get only404(): boolean {
    return this.#answered > 0 && this.#answeredOtherThan404.size === 0;
  }
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
function trafficChecks(
  selected: readonly Check[],
  excluded: readonly string[],
  extra: readonly Check[],
): ScenarioCheck[] {
  const wantsTraffic = selected.some((check) => check.kind === 'response');
  const scenarios = [...SCENARIO_CHECKS, ...extra.filter((check): check is ScenarioCheck => check.kind === 'scenario')];
  return scenarios.filter((check) => selected.includes(check) || (wantsTraffic && !excluded.includes(check.name)));
}

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
  const selected = selectChecks(options.checks ?? [], options.excludeChecks ?? []);
  const { unknown } = selected;
  // What the user chose decides the traffic; not-a-server-error only judges it.
  const chosen = [...selected.checks, ...(options.extraChecks ?? [])];
  const checks = [...withServerErrors(selected.checks, options.excludeChecks ?? []), ...(options.extraChecks ?? [])];
  if (unknown.length > 0)
    throw new ToolError(
      `unknown check ${unknown.map((name) => JSON.stringify(name)).join(', ')}; run \`kennel check --list-checks\` to see them`,
    );
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
  const timeoutMs = options.timeoutMs ?? CONTRACT_DEFAULTS.timeoutMs;
  await assertReachable(options.baseUrl, {
    timeoutMs,
    headers: options.headers ?? {},
    waitForMs: options.waitForMs ?? 0,
    signal: options.signal,
  });
  const runId = `${started.toString(36)}${new Random(seed).word(3)}`;
  const settings: RunSettings = {
    apiKey: options.apiKey,
    readOnly: options.readOnly ?? false,
    maxExamples: options.maxExamples ?? CONTRACT_DEFAULTS.maxExamples,
    concurrency: options.concurrency ?? CONTRACT_DEFAULTS.concurrency,
    runId,
    namePrefix: `kennel-${runId}`,
  };
  const info: RunInfo = {
    runId,
    seed,
    baseUrl: options.baseUrl,
    specFile: specPath,
    checks: checks.map((check) => check.name),
    operations: plan.operations.map((operation) => operation.id),
    readOnly: settings.readOnly,
  };
  const stopper = new AbortController();
  const client = new HttpClient({
    baseUrl: options.baseUrl,
    apiKey: options.apiKey,
    headers: options.headers ?? {},
    timeoutMs,
    concurrency: settings.concurrency,
    rateLimit: options.rateLimit ?? CONTRACT_DEFAULTS.rateLimit,
    maxRetries: 3,
    maxRetryAfterMs: 30_000,
    maxResponseBytes: options.maxResponseBytes ?? CONTRACT_DEFAULTS.maxResponseBytes,
    signal: stopper.signal,
  });
  const responseChecks = checks.filter((check): check is ResponseCheck => check.kind === 'response');
  const strict = options.strict ?? false;
  const run = new Run(
    plan,
    client,
    settings,
    seed,
    listeners,
    responseChecks,
    { strict, maxFailures: options.maxFailures ?? 0 },
    stopper,
  );
  const interrupt = (): void =>
    run.stop(`interrupted${options.signal?.reason ? ` by ${String(options.signal.reason)}` : ''}`, 'interrupt');
  if (options.signal?.aborted) interrupt();
  options.signal?.addEventListener('abort', interrupt, { once: true });
  let crash: unknown;
  try {
    for (const listener of listeners) listener.runStart?.(info);
    await run.discover();
    for (const check of trafficChecks(chosen, options.excludeChecks ?? [], options.extraChecks ?? []))
      await run.scenario(check, checks.includes(check));
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
  const summary = summarise(run, info, { started, strict, crash, requests: client.requestCount, checks });
  const failures: unknown[] = [];
  for (const listener of listeners) {
    try {
      await listener.runEnd?.(summary);
    } catch (error) {
      failures.push(error);
    }
  }
  if (crash !== undefined) throw crash;
  if (failures.length > 0) throw failures[0];
  return summary;
}

function summarise(
  run: Run,
  info: RunInfo,
  context: { started: number; strict: boolean; crash: unknown; requests: number; checks: readonly Check[] },
): RunSummary {
  const findings = run.cases.flatMap((result) => result.failures);
  const omitted = (severity: 'error' | 'warning') =>
    run.cases.reduce((sum, result) => sum + (result.omitted?.[severity] ?? 0), 0);
  const errors = findings.filter((item) => item.severity === 'error').length + omitted('error');
  const warnings = findings.filter((item) => item.severity === 'warning').length + omitted('warning');
  const errored = run.cases.filter((result) => result.status === 'errored').length;
  const failing = errors > 0 || (context.strict && warnings > 0);
  const stopped =
    context.crash !== undefined ? `kennel failed: ${describeCrash(context.crash)}` : (run.stopped ?? undefined);
  const interrupted = context.crash !== undefined || run.stopKind === 'interrupt';
  const idle = context.requests === 0 && !interrupted && run.stopped === undefined;
  const hint = basePathHint(info.baseUrl, run.plan.spec.basePath, run.only404);
  return {
    ...info,
    startedAt: new Date(context.started).toISOString(),
    durationMs: Date.now() - context.started,
    requests: context.requests,
    cases: orderCases(run.cases, run.plan, context.checks),
    errors,
    warnings,
    errored,
    failureCount: run.cases.reduce((sum, result) => sum + (result.failureCount ?? 0), 0),
    strict: context.strict,
    ...(stopped !== undefined ? { stopped } : {}),
    ...(hint ? { hints: [hint] } : {}),
    coverage: run.coverage.of(run.plan.operations),
    ...(idle ? { nothingSent: nothingSentReason(run.cases) } : {}),
    exitCode: interrupted || idle ? 2 : failing ? 1 : errored > 0 ? 2 : 0,
  };
}

/** Report order: by operation as the document lists them, then by check as the registry lists them. */
function orderCases(cases: readonly CaseResult[], plan: Plan, checks: readonly Check[]): CaseResult[] {
  const operationIndex = new Map(plan.operations.map((operation, index) => [operation.id, index]));
  const checkIndex = new Map(checks.map((check, index) => [check.name, index]));
  return [...cases].sort(
    (a, b) =>
      operationIndex.get(a.operationId)! - operationIndex.get(b.operationId)! ||
      checkIndex.get(a.check)! - checkIndex.get(b.check)!,
  );
}
