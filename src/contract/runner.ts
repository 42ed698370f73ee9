import { Random } from '../core/random.js';
import { CONTRACT_DEFAULTS } from './defaults.js';
import { ToolError } from '../core/tool-error.js';
import { loadSpec } from '../spec/load.js';
import type { Operation } from '../spec/operations.js';
import { HttpClient, describeNetworkError } from './http-client.js';
import { buildPlan, type Plan, type PlannedOperation } from './plan.js';
import { SCENARIO_CHECKS, selectChecks } from './registry.js';
import { learn } from './checks/support.js';
import type {
  Check,
  CheckContext,
  CheckFailure,
  Exchange,
  ResponseCheck,
  RunSettings,
  RunState,
  ScenarioCheck,
} from './types.js';

export interface ContractOptions {
  /** Base URL of the deployment, including the version segment (`https://…/v1`). */
  baseUrl: string;
  apiKey: string;
  specPath: string;
  /** Seed of all generated data; printed in every report so a run can be replayed. */
  seed: number;
  checks?: string[];
  excludeChecks?: string[];
  /** Generated cases per check and operation, at most. */
  maxExamples?: number;
  /** Send no request that could change state. */
  readOnly?: boolean;
  timeoutMs?: number;
  concurrency?: number;
  /** Requests per second at most (0: unlimited). */
  rateLimit?: number;
  /** Only these operations (operationId or `GET /path`). */
  operations?: string[];
  /** Only operations with one of these tags. */
  tags?: string[];
  headers?: Record<string, string>;
  /** Warnings fail the run too. */
  strict?: boolean;
}

export type CaseStatus = 'passed' | 'warned' | 'failed' | 'skipped';

/** One check on one operation: a JUnit test case. */
export interface CaseResult {
  operationId: string;
  method: string;
  path: string;
  check: string;
  description: string;
  status: CaseStatus;
  failures: CheckFailure[];
  skipReason?: string;
}

export interface RunInfo {
  runId: string;
  seed: number;
  baseUrl: string;
  specFile: string;
  checks: string[];
  operations: string[];
  readOnly: boolean;
}

export interface RunSummary extends RunInfo {
  startedAt: string;
  durationMs: number;
  requests: number;
  cases: CaseResult[];
  errors: number;
  warnings: number;
  strict: boolean;
  exitCode: 0 | 1;
}

/** Reporters subscribe to these; the runner itself never prints. */
export interface RunListener {
  runStart?(info: RunInfo): void;
  caseResult?(result: CaseResult): void;
  runEnd?(summary: RunSummary): void | Promise<void>;
}

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

function caseStatus(failures: readonly CheckFailure[]): CaseStatus {
  if (failures.some((item) => item.severity === 'error')) return 'failed';
  return failures.length > 0 ? 'warned' : 'passed';
}

/** Keeps the first of identical findings, counting how often each came up. */
function dedupe(failures: readonly CheckFailure[]): CheckFailure[] {
  const byKey = new Map<string, CheckFailure & { occurrences: number }>();
  for (const item of failures) {
    const key = `${item.severity}\u0000${item.title}`;
    const existing = byKey.get(key);
    if (existing) existing.occurrences += 1;
    else byKey.set(key, { ...item, occurrences: 1 });
  }
  return [...byKey.values()];
}

async function assertReachable(baseUrl: string, timeoutMs: number, headers: Record<string, string>): Promise<void> {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw new ToolError(`--base-url ${JSON.stringify(baseUrl)} is not a URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new ToolError(`--base-url must be http or https, not ${url.protocol}`);
  try {
    await fetch(url, { method: 'GET', headers, signal: AbortSignal.timeout(timeoutMs), redirect: 'manual' }).then(
      (response) => response.arrayBuffer(),
    );
  } catch (error) {
    throw new ToolError(`cannot reach ${baseUrl}: ${describeNetworkError(error, timeoutMs)}`);
  }
}

class Run {
  readonly state: RunState = { created: new Map(), observed: new Map(), knownIds: new Map() };
  readonly cases: CaseResult[] = [];

  constructor(
    readonly plan: Plan,
    readonly client: HttpClient,
    readonly settings: RunSettings,
    readonly seed: number,
    readonly listeners: readonly RunListener[],
  ) {}

  context(check: Check, operation: PlannedOperation): CheckContext {
    return {
      plan: this.plan,
      operation,
      send: (request) => this.client.send(request),
      random: new Random(derivedSeed(this.seed, check.name, operation.id)),
      state: this.state,
      settings: this.settings,
    };
  }

  record(check: Check, operation: PlannedOperation, failures: CheckFailure[], skipReason?: string): void {
    const owned = dedupe(failures.map((item) => ({ ...item, operationId: operation.id })));
    const result: CaseResult = {
      operationId: operation.id,
      method: operation.operation.method.toUpperCase(),
      path: operation.operation.path,
      check: check.name,
      description: check.description,
      status: skipReason !== undefined ? 'skipped' : caseStatus(owned),
      failures: owned,
      ...(skipReason !== undefined ? { skipReason } : {}),
    };
    this.cases.push(result);
    for (const listener of this.listeners) listener.caseResult?.(result);
  }

  /** Reads each list once first: existing ids and foreign-key values feed the generators. */
  async discover(): Promise<void> {
    for (const operation of this.plan.operations) {
      if (operation.role !== 'list' || operation.successStatuses.length === 0) continue;
      const exchange = await this.client.send({ operation, intent: 'valid', purpose: `${operation.id} (discovery)` });
      const body = exchange.response?.json?.ok ? exchange.response.json.value : undefined;
      if (Array.isArray(body)) learn(this.state, operation.collection, operation.idProperty, body);
    }
  }

  /** Runs a scenario check on every operation; `report` false runs it only for the traffic it makes. */
  async scenario(check: ScenarioCheck, report: boolean): Promise<void> {
    for (const operation of this.plan.operations) {
      const skip = check.skipReason(operation, this.plan, this.settings);
      if (skip !== undefined) {
        if (report) this.record(check, operation, [], skip);
        continue;
      }
      const outcome = await check.run(this.context(check, operation));
      if (report) this.record(check, operation, outcome.failures, outcome.skipped);
    }
  }

  responses(check: ResponseCheck, exchanges: readonly Exchange[]): void {
    for (const operation of this.plan.operations) {
      const mine = exchanges.filter((exchange) => exchange.operation === operation);
      if (mine.length === 0) {
        this.record(check, operation, [], 'no request reached this operation');
        continue;
      }
      this.record(
        check,
        operation,
        mine.flatMap((exchange) => check.inspect(this.plan, exchange)),
      );
    }
  }
}

/**
 * Scenario checks to run: the selected ones, or, when any response check is selected, every one not
 * explicitly excluded, because response checks judge the traffic scenario checks make.
 */
function trafficChecks(selected: readonly Check[], excluded: readonly string[]): ScenarioCheck[] {
  const wantsTraffic = selected.some((check) => check.kind === 'response');
  return SCENARIO_CHECKS.filter(
    (check) => selected.includes(check) || (wantsTraffic && !excluded.includes(check.name)),
  );
}

/** Runs the selected checks against a live deployment; listeners report, the result decides the exit code. */
export async function runContract(
  options: ContractOptions,
  listeners: readonly RunListener[] = [],
): Promise<RunSummary> {
  const started = Date.now();
  const { checks, unknown } = selectChecks(options.checks ?? [], options.excludeChecks ?? []);
  if (unknown.length > 0)
    throw new ToolError(
      `unknown check ${unknown.map((name) => JSON.stringify(name)).join(', ')}; run \`kennel check --list-checks\` to see them`,
    );
  const spec = await loadSpec(options.specPath);
  const plan = buildPlan(spec, selectOperations(options));
  if (plan.operations.length === 0)
    throw new ToolError(`no operation of ${options.specPath} matches --operation/--tag`);
  const timeoutMs = options.timeoutMs ?? CONTRACT_DEFAULTS.timeoutMs;
  await assertReachable(options.baseUrl, timeoutMs, options.headers ?? {});
  const runId = `${started.toString(36)}${new Random(options.seed).word(3)}`;
  const settings: RunSettings = {
    apiKey: options.apiKey,
    readOnly: options.readOnly ?? false,
    maxExamples: options.maxExamples ?? CONTRACT_DEFAULTS.maxExamples,
    concurrency: options.concurrency ?? CONTRACT_DEFAULTS.concurrency,
    runId,
    namePrefix: `kennel-${runId}`,
  };
  const client = new HttpClient({
    baseUrl: options.baseUrl,
    apiKey: options.apiKey,
    headers: options.headers ?? {},
    timeoutMs,
    concurrency: settings.concurrency,
    rateLimit: options.rateLimit ?? CONTRACT_DEFAULTS.rateLimit,
    maxRetries: 3,
    maxRetryAfterMs: 30_000,
  });
  const info: RunInfo = {
    runId,
    seed: options.seed,
    baseUrl: options.baseUrl,
    specFile: options.specPath,
    checks: checks.map((check) => check.name),
    operations: plan.operations.map((operation) => operation.id),
    readOnly: settings.readOnly,
  };
  for (const listener of listeners) listener.runStart?.(info);
  const run = new Run(plan, client, settings, options.seed, listeners);
  await run.discover();
  for (const check of trafficChecks(checks, options.excludeChecks ?? []))
    await run.scenario(check, checks.includes(check));
  for (const check of checks) if (check.kind === 'response') run.responses(check, client.exchanges);
  const failures = run.cases.flatMap((result) => result.failures);
  const errors = failures.filter((item) => item.severity === 'error').length;
  const warnings = failures.length - errors;
  const summary: RunSummary = {
    ...info,
    startedAt: new Date(started).toISOString(),
    durationMs: Date.now() - started,
    requests: client.requestCount,
    cases: orderCases(run.cases, plan, checks),
    errors,
    warnings,
    strict: options.strict ?? false,
    exitCode: errors > 0 || (options.strict && warnings > 0) ? 1 : 0,
  };
  for (const listener of listeners) await listener.runEnd?.(summary);
  return summary;
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
