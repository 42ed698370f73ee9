import { FindingSet } from './findings.js';
import type { PlannedOperation } from '../prepare/plan.js';
import type { CaseResult, CaseStatus } from './run-types.js';
import type { Check } from '../types.js';

/** `TypeError: x is undefined (at src/contract/checks/foo.ts:12:7)`: enough to file the bug. */
export function describeCrash(error: unknown): string {
  const text = error instanceof Error ? `${error.name}: ${error.message}` : `thrown: ${String(error)}`;
  const frame =
    error instanceof Error ? /\(?((?:file:\/\/)?[^\s()]+:\d+:\d+)\)?/.exec(error.stack?.split('\n')[1] ?? '') : null;
  return frame ? `${text} (at ${frame[1]})` : text;
}

/** One check on one operation while the run goes: findings as they come, time spent, a crash. */
export class CaseRecord {
  readonly findings = new FindingSet();
  durationMs = 0;
  error: string | undefined;
  skipReason: string | undefined;
  /** Why the check applied but got none of the responses it needs (it judged nothing). */
  unexercised: string | undefined;
  constructor(
    readonly check: Check,
    readonly operation: PlannedOperation,
  ) {}

  /**
   * A crash beats a skip, a skip beats findings; an error-level finding fails the case; a check
   * that judged nothing is `unexercised` (never passed), even with warnings; a warning warns.
   */
  #status(): CaseStatus {
    if (this.error !== undefined) return 'errored';
    if (this.skipReason !== undefined) return 'skipped';
    const { findings, omitted } = this.findings;
    if (findings.some((item) => item.severity === 'error') || omitted.error > 0) return 'failed';
    if (this.unexercised !== undefined) return 'unexercised';
    return findings.length > 0 ? 'warned' : 'passed';
  }

  /** The case as reporters see it. */
  result(): CaseResult {
    const failures = this.findings.findings;
    const status = this.#status();
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
      ...(status === 'unexercised' ? { unexercisedReason: this.unexercised } : {}),
      ...(this.error !== undefined ? { error: this.error } : {}),
      durationMs: Math.round(this.durationMs),
    };
  }
}
