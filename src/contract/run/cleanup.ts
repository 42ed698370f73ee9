import { jsonBody } from '../checks/response-body.js';
import { isSuccess } from '../checks/response-status.js';
import type { CheckPlan, PlannedOperation } from '../prepare/plan.js';
import type { Exchange, RequestSpec } from '../types.js';

/** What the run did about the items it created (RunSummary.cleanup). */
export interface CleanupReport {
  /** Items the run created and then deleted at its end (those its checks deleted not counted). */
  deleted: number;
  /** Items it created and left behind, each with why. */
  left: { url: string; reason: string }[];
}

/** An item the run created and has not seen deleted. */
interface CreatedItem {
  url: string;
  collection: string;
}

function join(base: string, id: unknown): string {
  return `${base.replace(/\/+$/, '')}/${encodeURIComponent(String(id))}`;
}

/**
 * Every item a successful create of the run made, whichever check sent it, by URL (its Location,
 * else the collection URL plus its key); a successful DELETE of that URL forgets it.
 */
export class CreatedItems {
  readonly #items = new Map<string, CreatedItem>();

  observe(exchange: Exchange): void {
    const { role, collection, idProperty } = exchange.operation;
    if (!collection || !isSuccess(exchange)) return;
    const requested = new URL(exchange.request.url);
    requested.search = '';
    if (role === 'delete') {
      this.#items.delete(requested.href);
      return;
    }
    if (role !== 'create') return;
    const url = this.#itemUrl(exchange, requested, idProperty);
    if (url !== undefined) this.#items.set(url, { url, collection });
  }

  #itemUrl(exchange: Exchange, requested: URL, idProperty: string | undefined): string | undefined {
    const body = jsonBody(exchange);
    const id =
      idProperty && body && typeof body === 'object' && !Array.isArray(body)
        ? (body as Record<string, unknown>)[idProperty]
        : undefined;
    if (id !== undefined && id !== null && typeof id !== 'object') return join(requested.href, id);
    const location = exchange.response?.headers.location;
    if (!location) return undefined;
    try {
      const url = new URL(location, requested);
      url.search = '';
      return url.href;
    } catch {
      return undefined;
    }
  }

  /** Newest first, so sub-resources go before the items they were created under. */
  get pending(): CreatedItem[] {
    return [...this.#items.values()].reverse();
  }
}

/** The documented delete of a collection's items, if the document has one. */
function deleteOf(plan: CheckPlan, collection: string): PlannedOperation | undefined {
  return plan.all.find((operation) => operation.role === 'delete' && operation.collection === collection);
}

/**
 * Deletes what the run created, where the document has a delete operation for it, so the next run
 * meets the deployment as this one did. A 404 or 410 means already gone; anything else is left and said.
 */
export async function cleanUp(
  plan: CheckPlan,
  items: CreatedItems,
  send: (spec: RequestSpec) => Promise<Exchange>,
): Promise<CleanupReport> {
  const report: CleanupReport = { deleted: 0, left: [] };
  for (const item of items.pending) {
    const operation = deleteOf(plan, item.collection);
    if (!operation) {
      report.left.push({ url: item.url, reason: `the document has no delete for ${item.collection}` });
      continue;
    }
    const exchange = await send({
      operation,
      intent: 'valid',
      purpose: 'cleanup: delete what the run created',
      url: item.url,
    });
    const status = exchange.response?.status;
    if (status !== undefined && (isSuccess(exchange) || status === 404 || status === 410)) report.deleted += 1;
    else
      report.left.push({
        url: item.url,
        reason: status === undefined ? `DELETE failed: ${exchange.error ?? 'no answer'}` : `DELETE answered ${status}`,
      });
  }
  return report;
}
