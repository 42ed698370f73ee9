import type { PlannedOperation } from '../prepare/plan.js';
import type { CheckContext } from '../types.js';
import { idKey } from './ids.js';
import { coveringRanges, readList, type Item, type ListRead } from './list-reads.js';

/** Waits between re-reads of a list that misses a created item: about 1.5 s in all. */
const RETRY_PAUSES_MS = [100, 200, 400, 800];

/** A timer, not a clock: checks wait between re-reads but never read the time. */
export function pause(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** What re-reading a list until it holds some ids found. */
export interface ListedOutcome extends ListRead {
  /** Ids (as `idKey`) still absent after the last read. */
  missing: string[];
  /** Time spent waiting and reading after the first read, in ms (0: all there at once). */
  waitedMs: number;
  reads: number;
}

/** The ids a listing must show, and the query it is read with. */
export interface ListedWanted {
  query: Record<string, string>;
  /** Ids as `idKey` gives them. */
  ids: readonly string[];
}

/** How long to wait for a listing, and under which parents a sub-collection is read. */
export interface ListingPatience {
  /** Re-read after growing pauses (true by default); false: one read. */
  patient?: boolean;
  /** The parents the items were created under (`projectId` of `/projects/{projectId}/tasks`). */
  parents?: Record<string, string>;
}

/** What the run created in the list's collection with one of `ids`, as returned. */
function createdWith(context: CheckContext, list: PlannedOperation, ids: readonly string[]): Item[] {
  const created = context.state.created.get(list.collection ?? '') ?? [];
  return created.filter((resource) => ids.includes(idKey(resource.id))).map((resource) => resource.returned);
}

/**
 * Reads `query` until every id of `ids` is listed, re-reading after growing pauses (about 1.5 s
 * in all): a deployment whose lists lag behind its writes shows how far behind. Not `patient`:
 * one read (once a list has never shown a created item, waiting again only slows the run).
 */
export async function awaitListed(
  context: CheckContext,
  list: PlannedOperation,
  { query: asked, ids }: ListedWanted,
  purpose: string,
  { patient = true, parents = {} }: ListingPatience = {},
): Promise<ListedOutcome> {
  const idProperty = list.idProperty!;
  const query = { ...coveringRanges(list, createdWith(context, list, ids)), ...asked };
  let read = await readList(context, list, query, purpose, parents);
  const absent = (outcome: ListRead): string[] => {
    const listed = new Set((outcome.items ?? []).map((item) => idKey(item[idProperty])));
    return ids.filter((id) => !listed.has(id));
  };
  let missing = read.items ? absent(read) : [];
  let waitedMs = 0;
  let reads = 1;
  for (const wait of patient ? RETRY_PAUSES_MS : []) {
    if (missing.length === 0 || !read.items) break;
    await pause(wait);
    read = await readList(context, list, query, `${purpose} (again after ${waitedMs + wait} ms)`, parents);
    waitedMs += wait + read.exchange.durationMs;
    reads += 1;
    if (read.items) missing = absent(read);
  }
  return { ...read, missing, waitedMs, reads };
}
