import type { PlannedOperation } from '../prepare/plan.js';
import type { CheckContext } from '../types.js';
import type { ListedOutcome } from './awaited-listing.js';
import { idKey } from './ids.js';
import { readList, wholeListQuery } from './list-reads.js';

/** The limit asked for where the document bounds none: large and explicit, and never trusted unproven. */
const LARGE_LIMIT = 1000;

/** How a list is read whole: its query, the most items that answer may hold, whether the cap is ours. */
export interface WholeQuery {
  query: Record<string, string>;
  cap: number;
  /** The document states no bound: a shorter answer may still be a silent server cap (`shortAnswerFails`). */
  unproven?: true;
}

/**
 * How to read a list whole: `wholeListQuery`, else (a limit with neither maximum nor default) a
 * large explicit limit, whose short answer proves nothing by itself.
 */
export function wholeOrLargeQuery(list: PlannedOperation): WholeQuery {
  const whole = wholeListQuery(list);
  if (whole) return whole;
  return { query: { [list.limit!.name]: String(LARGE_LIMIT) }, cap: LARGE_LIMIT, unproven: true };
}

/**
 * Whether ids missing from a short answer to an unproven large limit are missing from the list.
 * A server may cap lists silently, or answer its default page to a limit above a maximum it does
 * not document; neither is a fault. So the absence counts only when, at once, the same list asked
 * for exactly the items it must hold (those shown and those missing) shows the missing ones, and
 * the list without a limit answers another length than the short answer (no default substituted).
 */
export async function shortAnswerFails(
  context: CheckContext,
  list: PlannedOperation,
  outcome: ListedOutcome,
  asked: Record<string, string>,
): Promise<boolean> {
  const limit = list.limit;
  const shown = outcome.items?.length ?? 0;
  const wanted = shown + outcome.missing.length;
  if (!limit || wanted >= LARGE_LIMIT || wanted < limit.minimum) return false;
  const { [limit.name]: _large, ...rest } = asked;
  const [exact, unlimited] = await Promise.all([
    readList(context, list, { ...rest, [limit.name]: String(wanted) }, `${list.id} with ${limit.name}=${wanted}`),
    readList(context, list, rest, `${list.id} without ${limit.name}`),
  ]);
  const listed = new Set((exact.items ?? []).map((item) => idKey(item[list.idProperty!])));
  const showsMissing = outcome.missing.every((id) => listed.has(id));
  return showsMissing && unlimited.items !== undefined && unlimited.items.length !== shown;
}
