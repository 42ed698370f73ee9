import { Random } from '../../core/random.js';
import { CaseRecord, describeCrash } from './case-record.js';
import { collectionNamesOf } from '../prepare/collection-keys.js';
import { acceptanceOf, inventedSlots, type Observed } from './acceptance.js';
import { followWrites } from '../checks/created-writes.js';
import { identitiesOf } from '../checks/generation.js';
import { isSuccess } from '../checks/response-status.js';
import { CreatedItems, type CleanupReport } from './cleanup.js';
import { CoverageTracker } from '../checks/coverage.js';
import { explore } from './explore.js';
import { learnFrom } from './learn-exchange.js';
import { valuesFor } from '../prepare/reference-values.js';
import { ValuePool } from '../prepare/value-pool.js';
import { RunStopped, type HttpClient } from '../transport/http-client.js';
import type { CheckPlan, PlannedOperation } from '../prepare/plan.js';
import type { StopKind } from './run-summary.js';
import type { CaseResult, RunListener } from './run-types.js';
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
} from '../types.js';

/** A seed per check and operation, so a --check subset generates the same data as the full run. */
function derivedSeed(seed: number, ...parts: string[]): number {
  let hash = seed >>> 0;
  for (const char of parts.join('\u0000')) hash = Math.imul(hash ^ char.charCodeAt(0), 16777619) >>> 0;
  return hash;
}

/** One run in progress: its cases, coverage and shared state; it sends, judges and reports. */
export class Run {
  readonly state: RunState = {
    created: new Map(),
    pool: new ValuePool(),
    workingQueries: new Map(),
    issuedIds: new Map(),
  };
  readonly cases: CaseResult[] = [];
  readonly coverage = new CoverageTracker();
  /** Every item the run created and has not deleted: what cleanup deletes at the end. */
  readonly createdItems = new CreatedItems();
  /** What cleanup did, once it ran (not after an interrupt or --max-failures). */
  cleanup: CleanupReport | undefined;
  stopKind: StopKind | undefined;
  /** Response checks' cases, filled as exchanges arrive, reported at the end. */
  readonly #judged = new Map<string, CaseRecord>();
  /** Operations that got an answer other than 404 / any answer at all (for the base-path hint). */
  readonly #answeredOtherThan404 = new Set<string>();
  /** Per operation: reference slots whose invented values the deployment accepted (`acceptance.ts`). */
  readonly #acceptedSlots = new Map<string, Set<string>>();
  #answered = 0;
  #failing = 0;
  /** Progress: the phase, steps done, and steps in all (set by the runner once it knows the checks). */
  #phase = 'preflight';
  #done = 0;
  stepsTotal = 0;
  #selected: ReadonlySet<string> | undefined;
  /** Requests sent to the selected operations (not the lists discovery read only to feed them). */
  selectedRequests = 0;

  constructor(
    readonly plan: CheckPlan,
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
    const facts = {
      observed: this.#observedFor(request.operation),
      identities: identitiesOf({ operation: request.operation, plan: this.plan }),
      accepted: this.#acceptedSlots.get(request.operation.id),
      collections: collectionNamesOf(this.plan.operations),
    };
    const acceptance = acceptanceOf(request, facts);
    const invented = request.intent === 'valid' ? inventedSlots(request, facts) : [];
    const sent = await this.client.send(acceptance ? { ...request, acceptance } : request);
    const exchange = acceptance === 'plausible' && invented.length > 0 ? { ...sent, invented } : sent;
    if (isSuccess(exchange)) this.#accepted(request, invented);
    this.#selected ??= new Set(this.plan.operations.map((operation) => operation.id));
    if (this.#selected.has(exchange.operation.id)) this.selectedRequests += 1;
    followWrites(this.state, exchange);
    this.createdItems.observe(exchange);
    this.coverage.record(exchange);
    learnFrom(this.state.pool, exchange);
    if (exchange.response) {
      this.#answered += 1;
      if (exchange.response.status !== 404) this.#answeredOtherThan404.add(exchange.operation.id);
    }
    this.#progress();
    for (const check of this.responseChecks) {
      const record = this.#judgedCase(check, exchange.operation);
      if (record.error !== undefined) continue;
      const started = performance.now();
      try {
        for (const item of check.inspect(this.plan, exchange, this.state)) this.#add(record, item);
      } catch (error) {
        record.error = describeCrash(error);
        this.#count(1);
      } finally {
        record.durationMs += performance.now() - started;
      }
    }
    return exchange;
  };

  /**
   * What the deployment showed, as an operation's body slots see it: a slot named `sessionId`
   * holding one of the sessions' keys names something it gave, though no item has a `sessionId`.
   */
  #observedFor(operation: PlannedOperation): Observed {
    const { pool } = this.state;
    const edges = this.plan.references.of(operation.operation).filter((edge) => edge.slot.in === 'body');
    if (edges.length === 0) return pool.observed;
    return {
      get: (name) => {
        const own = pool.observed.get(name) ?? [];
        const edge = edges.find((candidate) => candidate.slot.word === name);
        return edge ? [...own, ...valuesFor(this, edge)] : own;
      },
    };
  }

  /** Invented reference slots the deployment accepted (a 2xx) for an operation. */
  #accepted(request: Parameters<HttpClient['send']>[0], slots: readonly string[]): void {
    if (slots.length === 0) return;
    const known = this.#acceptedSlots.get(request.operation.id) ?? new Set<string>();
    for (const slot of slots) known.add(slot);
    this.#acceptedSlots.set(request.operation.id, known);
  }

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

  /** Tells listeners where the run is (they decide how often to show it). */
  #progress(): void {
    const progress = {
      phase: this.#phase,
      done: this.#done,
      total: this.stepsTotal,
      requests: this.client.requestCount,
      findings: this.#failing,
    };
    for (const listener of this.listeners) listener.progress?.(progress);
  }

  /** Enters a phase of the run (`discovery`, a check, `cleanup`). */
  enter(phase: string): void {
    this.#phase = phase;
    this.#progress();
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

  context(check: Pick<Check, 'name'>, operation: PlannedOperation): CheckContext {
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

  /**
   * Reads the lists first, producers before consumers, through envelopes and pages, and explores
   * searches keyed by references: the deployment's ids and values feed every request built later.
   */
  async discover(): Promise<void> {
    this.enter('discovery');
    const selected = new Set(this.plan.operations);
    await explore(this.plan, (operation) => {
      const context = this.context({ name: 'discovery' }, operation);
      // A list read only to feed a selected operation is scaffolding, not a subject: learned from, not judged.
      return selected.has(operation) ? context : { ...context, send: this.#sendUnjudged };
    });
  }

  readonly #sendUnjudged = async (request: Parameters<HttpClient['send']>[0]): Promise<Exchange> => {
    const exchange = await this.client.send(request);
    learnFrom(this.state.pool, exchange);
    return exchange;
  };

  /**
   * The selected operations, producers before consumers: a check's create of an order then finds
   * the pets its own create of a pet made, wherever the document declares them.
   */
  get #producersFirst(): PlannedOperation[] {
    const selected = new Set(this.plan.operations);
    return this.plan.order.filter((operation) => selected.has(operation));
  }

  /** Runs a scenario check on every operation; `report` false runs it only for the traffic it makes. */
  async scenario(check: ScenarioCheck, report: boolean): Promise<void> {
    this.enter(check.name);
    for (const operation of this.#producersFirst) {
      const record = new CaseRecord(check, operation);
      const started = performance.now();
      try {
        if (this.stopped !== undefined) throw new RunStopped(this.stopped);
        record.skipReason = check.skipReason(operation, this.plan, this.settings);
        if (record.skipReason === undefined) {
          const outcome = await check.run(this.context(check, operation));
          record.skipReason = outcome.skipped;
          record.unexercised = outcome.unexercised;
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
      this.#done += 1;
      this.#progress();
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
