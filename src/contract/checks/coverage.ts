import { responseFor } from '../../openapi/operations.js';
import type { PlannedOperation } from '../prepare/plan.js';
import type { Exchange } from '../types.js';

/** An operation that never reached a documented success, and what it got instead. */
export interface Unsucceeded {
  operationId: string;
  /** `400 ×10, 404 ×2`, `no request reached it`, or `no response (timeout) ×3`. */
  got: string;
}

/** How much of the document a run exercised. */
export interface Coverage {
  /**
   * Selected operations that answered at least one request with a documented success (a 2xx the
   * operation documents: exactly, by `2XX` or by `default`), of the selected operations that
   * document one. An answer alone is not coverage: a 400 to every request exercised nothing.
   */
  operations: { succeeded: number; total: number };
  /** Documented responses (`200`, `4XX`, `default` of each operation) seen at least once, of all documented. */
  statuses: { observed: number; documented: number };
  /** Operations that document a success but never reached one, with what they got instead. */
  unsucceeded: Unsucceeded[];
  /** Selected operations that document no success at all (nothing to reach): their ids. */
  noDocumentedSuccess: string[];
}

/** `400 ×10, 404 ×2`: outcomes, commonest first, then by name. */
export function tallyText(counts: ReadonlyMap<string, number>): string {
  return [...counts.entries()]
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .map(([outcome, count]) => (count === 1 ? outcome : `${outcome} ×${count}`))
    .join(', ');
}

/** The outcome of an exchange as a word of a tally: its status, or `no response (timeout)`. */
export function outcomeOf(exchange: Exchange): string {
  return exchange.response ? String(exchange.response.status) : `no response (${exchange.error ?? 'unknown'})`;
}

/** A 2xx the operation documents (exactly, by `2XX` or by `default`). */
export function isDocumentedSuccess(exchange: Exchange): boolean {
  const status = exchange.response?.status;
  return (
    status !== undefined &&
    status >= 200 &&
    status < 300 &&
    responseFor(exchange.operation.operation, status) !== undefined
  );
}

/** The operation documents a response that covers some 2xx: an exact 2xx, `2XX` or `default`. */
function documentsSuccess(operation: PlannedOperation): boolean {
  return operation.operation.responses.some((response) => /^(2\d\d|2XX|default)$/i.test(response.status));
}

/** Counts, as exchanges arrive, which documented responses each operation gave and what the others got. */
export class CoverageTracker {
  readonly #seen = new Map<string, Set<string>>();
  readonly #succeeded = new Set<string>();
  readonly #otherwise = new Map<string, Map<string, number>>();

  /** An exchange of the run (one with no answer counts as what it got: a network error). */
  record(exchange: Exchange): void {
    const { operation } = exchange;
    if (isDocumentedSuccess(exchange)) this.#succeeded.add(operation.id);
    else {
      const tally = this.#otherwise.get(operation.id) ?? new Map<string, number>();
      const outcome = outcomeOf(exchange);
      tally.set(outcome, (tally.get(outcome) ?? 0) + 1);
      this.#otherwise.set(operation.id, tally);
    }
    const status = exchange.response?.status;
    if (status === undefined) return;
    const seen = this.#seen.get(operation.id) ?? new Set<string>();
    const documented = responseFor(operation.operation, status);
    if (documented) seen.add(documented.status);
    this.#seen.set(operation.id, seen);
  }

  /** The coverage of `operations` (the selected ones) by what was recorded. */
  of(operations: readonly PlannedOperation[]): Coverage {
    const reachable = operations.filter(documentsSuccess);
    const unsucceeded = reachable
      .filter((operation) => !this.#succeeded.has(operation.id))
      .map((operation) => {
        const tally = this.#otherwise.get(operation.id);
        return { operationId: operation.id, got: tally ? tallyText(tally) : 'no request reached it' };
      });
    return {
      operations: { succeeded: reachable.length - unsucceeded.length, total: reachable.length },
      statuses: {
        observed: operations.reduce((sum, operation) => sum + (this.#seen.get(operation.id)?.size ?? 0), 0),
        documented: operations.reduce((sum, operation) => sum + operation.operation.responses.length, 0),
      },
      unsucceeded,
      noDocumentedSuccess: operations
        .filter((operation) => !documentsSuccess(operation))
        .map((operation) => operation.id),
    };
  }
}

function listed<T>(items: readonly T[], show: (item: T) => string, most = 5): string {
  return items.slice(0, most).map(show).join('; ') + (items.length > most ? `; … (${items.length} in all)` : '');
}

/**
 * `coverage: 5/6 operations reached a documented success (not createPet: 400 ×10) · 9/14 documented
 * statuses observed · listOrders documents no success`.
 */
export function coverageLine(coverage: Coverage): string {
  const { operations, statuses, unsucceeded, noDocumentedSuccess } = coverage;
  const missing =
    unsucceeded.length > 0 ? ` (not ${listed(unsucceeded, (item) => `${item.operationId}: ${item.got}`)})` : '';
  const none =
    noDocumentedSuccess.length > 0
      ? ` · ${listed(noDocumentedSuccess, (id) => id)} ${noDocumentedSuccess.length === 1 ? 'documents' : 'document'} no success`
      : '';
  return `coverage: ${operations.succeeded}/${operations.total} operations reached a documented success${missing} · ${statuses.observed}/${statuses.documented} documented statuses observed${none}`;
}
