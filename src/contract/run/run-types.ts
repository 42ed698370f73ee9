import type { CleanupReport } from './cleanup.js';
import type { Coverage } from '../checks/coverage.js';
import type { Check, Finding, Severity } from '../types.js';

/** What `runContract` needs; everything but `baseUrl` and `apiKey` has the CLI's default. */
export interface ContractOptions {
  /** Base URL of the deployment, including the version segment (`https://…/v1`). */
  baseUrl: string;
  apiKey: string;
  /** The OpenAPI document (default: the bundled Pet Store spec). */
  specPath?: string;
  /** Seed of all generated data (default: random); printed in every report so a run can be replayed. */
  seed?: number;
  checks?: string[];
  excludeChecks?: string[];
  /** Generated cases per check and operation, at most. */
  maxExamples?: number;
  /** Send no request that could change state. */
  readOnly?: boolean;
  /** Per request, from sending to the last byte of the body. */
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
  /** Checks that applied but judged nothing (`unexercised`) make the run exit 2 (by default they are reported, exit 0). */
  requireExercised?: boolean;
  /** Stop once this many findings fail the run (0 or unset: never). */
  maxFailures?: number;
  /** Keep retrying a refused connection to the base URL for this long before giving up. */
  waitForMs?: number;
  /** Largest response body read (decompressed); a larger one is cut off and reported. */
  maxResponseBytes?: number;
  /** Your own checks, run after the selected built-in ones (each `(…) => CheckFailure[]`, see src/contract/types.ts). */
  extraChecks?: Check[];
  /** Aborting it stops the run at once; the reports are still made, from what was found so far. */
  signal?: AbortSignal;
  /** Told each thing kennel worked around while loading the document (`location` is `file:line`). */
  onLoadWarning?: (warning: { location: string; message: string }) => void;
}

/**
 * `skipped`: the check does not apply (or did not run); `unexercised`: it applied but never got the
 * responses it needs, so it judged nothing (never reported as passed).
 */
export type CaseStatus = 'passed' | 'warned' | 'failed' | 'errored' | 'skipped' | 'unexercised';

/** One check on one operation: a JUnit test case. */
export interface CaseResult {
  operationId: string;
  method: string;
  path: string;
  check: string;
  description: string;
  status: CaseStatus;
  /** Unique findings (failures grouped: see docs/contract-checks.md), errors first as found. */
  failures: Finding[];
  /** Failures before grouping. */
  failureCount?: number;
  /** Failures of unique findings beyond the bound of a case, counted but not kept. */
  omitted?: Record<Severity, number>;
  skipReason?: string;
  /** Why a check that applied judged nothing (`none of 12 creates answered 2xx: 400 ×10, 404 ×2`). */
  unexercisedReason?: string;
  /** The check itself crashed here (a kennel bug, not a finding): the error and where it was thrown. */
  error?: string;
  /** Time spent in this check for this operation (its requests, or judging responses). */
  durationMs?: number;
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
  /** Unique error findings. */
  errors: number;
  /** Unique warning findings. */
  warnings: number;
  /** Cases whose check crashed. */
  errored?: number;
  /** Cases whose check applied but judged nothing (status `unexercised`). */
  unexercised?: number;
  /** Failures before grouping into findings. */
  failureCount?: number;
  strict: boolean;
  /** `--require-exercised`: not-exercised cases fail the run (exit 2 instead of 0). */
  requireExercised?: boolean;
  /** Why the run ended before every check ran (`--max-failures`, an interrupt), if it did. */
  stopped?: string;
  /** Advice about the run itself (a base URL that misses the document's base path). */
  hints?: string[];
  /** Operations that reached a documented success, and documented statuses observed. */
  coverage?: Coverage;
  /** The items the run created: how many it deleted at its end, which it left and why. */
  cleanup?: CleanupReport;
  /** Why no request was sent (every check skipped everywhere): such a run exits 2, never "conforms". */
  nothingSent?: string;
  /**
   * 0 conforms, 1 findings, 2 the run could not be fully checked (interrupted, nothing was sent, or
   * without error findings: a check crashed or a check was not exercised).
   */
  exitCode: 0 | 1 | 2;
}

/** Where a run is: emitted after every request and every check-operation step (reporters throttle). */
export interface RunProgress {
  /** What runs now: `preflight`, `discovery`, a check's name, or `cleanup`. */
  phase: string;
  /** Check-operation steps done, of `total` (scenario checks × selected operations). */
  done: number;
  total: number;
  requests: number;
  /** Findings so far that fail the run. */
  findings: number;
}

/** Reporters subscribe to these; the runner itself never prints. */
export interface RunListener {
  runStart?(info: RunInfo): void;
  progress?(progress: RunProgress): void;
  caseResult?(result: CaseResult): void;
  runEnd?(summary: RunSummary): void | Promise<void>;
}
