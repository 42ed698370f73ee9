import { responseFor } from '../openapi/operations.js';
import type { PlannedOperation } from './plan.js';

/** How much of the document a run exercised. */
export interface Coverage {
  /** Selected operations that answered at least one request, of all selected operations. */
  operations: { exercised: number; total: number };
  /** Documented responses (`200`, `4XX`, `default` of each operation) seen at least once, of all documented. */
  statuses: { observed: number; documented: number };
  /** Operations no request reached (their ids), so a user sees what the run left untested. */
  unexercised: string[];
}

/** Counts, as exchanges arrive, which operations answered and which documented responses they gave. */
export class CoverageTracker {
  readonly #seen = new Map<string, Set<string>>();

  /** An answer of `status` from `operation` (undefined: no answer, a network error). */
  record(operation: PlannedOperation, status: number | undefined): void {
    if (status === undefined) return;
    const seen = this.#seen.get(operation.id) ?? new Set<string>();
    const documented = responseFor(operation.operation, status);
    if (documented) seen.add(documented.status);
    this.#seen.set(operation.id, seen);
  }

  /** The coverage of `operations` (the selected ones) by what was recorded. */
  of(operations: readonly PlannedOperation[]): Coverage {
    const exercised = operations.filter((operation) => this.#seen.has(operation.id));
    return {
      operations: { exercised: exercised.length, total: operations.length },
      statuses: {
        observed: operations.reduce((sum, operation) => sum + (this.#seen.get(operation.id)?.size ?? 0), 0),
        documented: operations.reduce((sum, operation) => sum + operation.operation.responses.length, 0),
      },
      unexercised: operations.filter((operation) => !this.#seen.has(operation.id)).map((operation) => operation.id),
    };
  }
}

/** `coverage: 5/6 operations exercised (not deletePet) · 9/14 documented statuses observed`. */
export function coverageLine(coverage: Coverage): string {
  const { operations, statuses, unexercised } = coverage;
  const missing = unexercised.slice(0, 5).join(', ') + (unexercised.length > 5 ? ', …' : '');
  return `coverage: ${operations.exercised}/${operations.total} operations exercised${missing ? ` (not ${missing})` : ''} · ${statuses.observed}/${statuses.documented} documented statuses observed`;
}
