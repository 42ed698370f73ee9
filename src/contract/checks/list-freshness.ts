import { filterValue, type FilterParameter, type PlannedOperation } from '../prepare/plan.js';
import type { CheckContext, CheckFailure, ScenarioCheck } from '../types.js';
import { awaitListed, type ListedOutcome } from './awaited-listing.js';
import { locatedItemPath } from './created-key.js';
import { idKey } from './ids.js';
import { searchOnly, readList, type Item } from './list-reads.js';
import { shortAnswerFails, wholeOrLargeQuery, type WholeQuery } from './short-answers.js';
import { createResources } from './test-data.js';
import { noIdReason, notAList } from './unexercised.js';
import { failure } from './failure.js';

/**
 * How many resources to create: at least one, and enough that the default limit shows, unfiltered
 * and for the first filter value (collection-consistency then compares those windows), while the
 * collection stays small enough to read whole.
 */
function fillCount(list: PlannedOperation, items: readonly Item[], cap: number, filter?: FilterParameter): number {
  const fallback = list.limit?.default;
  let count = 1;
  if (fallback !== undefined) {
    const wanted = filter && filterValue(filter, filter.values[0]!);
    const matching = filter ? items.filter((item) => item[filter.property] === wanted).length : items.length;
    count = Math.max(count, fallback + 1 - items.length, fallback + 1 - matching);
  }
  return Math.min(count, cap - 1 - items.length);
}

function judge(
  check: string,
  list: PlannedOperation,
  outcome: ListedOutcome,
  what: string,
  cap: number,
): CheckFailure[] {
  // A full page may leave the new items out legitimately: only a list read whole proves them absent.
  if (!outcome.items || outcome.items.length >= cap) return [];
  if (outcome.missing.length > 0)
    return [
      failure(
        check,
        'error',
        outcome.exchange,
        `${outcome.missing.length} created resource(s) never appear in ${what}`,
        {
          expected: `items with ${list.idProperty} ${outcome.missing.slice(0, 5).join(', ')}`,
          actual: `still missing after ${outcome.reads} reads over ${outcome.waitedMs} ms`,
        },
      ),
    ];
  if (outcome.waitedMs === 0) return [];
  return [
    failure(check, 'warning', outcome.exchange, `created resources appear in ${what} only after a delay`, {
      expected: 'listed at once, in the first read after the create was answered',
      actual: `listed after ${outcome.reads - 1} re-read(s), about ${outcome.waitedMs} ms later`,
    }),
  ];
}

/**
 * `judge`, where the list's cap is ours (no documented bound): missing items that a short answer
 * may have cut are a warning unless `shortAnswerFails` proves them missing.
 */
async function judgeAnswer(
  check: string,
  context: CheckContext,
  outcome: ListedOutcome,
  what: string,
  { query, cap, unproven }: WholeQuery,
): Promise<CheckFailure[]> {
  const list = context.operation;
  const short = unproven && outcome.items && outcome.items.length < cap && outcome.missing.length > 0;
  if (!short || (await shortAnswerFails(context, list, outcome, query))) return judge(check, list, outcome, what, cap);
  return [
    failure(check, 'warning', outcome.exchange, `${outcome.missing.length} created resource(s) missing from ${what}`, {
      expected: `items with ${list.idProperty} ${outcome.missing.slice(0, 5).join(', ')}`,
      actual: `${outcome.items!.length} items without them; the document bounds no limit, so the deployment may cap lists silently`,
    }),
  ];
}

/**
 * Resources just created are listed at once, unfiltered and filtered by their value; a list
 * that shows them only after a while is a warning saying how long, one that never shows them an error.
 */
export const listFreshness: ScenarioCheck = {
  name: 'list-freshness',
  kind: 'scenario',
  severity: 'error',
  description: 'created resources appear in lists at once',
  skipReason(operation, plan, settings) {
    if (operation.role !== 'list' || !operation.collection || !operation.idProperty)
      return 'not a list of identified resources';
    const search = searchOnly(operation);
    if (search) return search;
    const create = plan.collection(operation.collection).create;
    if (!create?.body) return 'nothing creates resources in this collection';
    if (!create.returnsItem && !locatedItemPath(create))
      return 'the create documents no resource in its response and its collection no item path (no id to look for)';
    return settings.readOnly ? 'read-only run' : undefined;
  },
  async run(context) {
    const list = context.operation;
    const create = context.plan.collection(list.collection!).create!;
    const whole = wholeOrLargeQuery(list);
    const before = await readList(context, list, whole.query, `${list.id} read whole`);
    if (!before.items) return { failures: [], unexercised: notAList(before.exchange) };
    const filter = list.filters[0];
    const count = fillCount(list, before.items, whole.cap, filter);
    if (count <= 0)
      return {
        failures: [],
        skipped: `the collection holds ${before.items.length} items: too many to read whole (${whole.cap} at most)`,
      };
    const value = filter?.values[0];
    const typed = filter && filterValue(filter, value!);
    const overrides = filter ? { [filter.property]: typed } : {};
    const { created, exchanges } = await createResources(context, create, count, { overrides });
    const ids = created.map((resource) => idKey(resource.id));
    if (ids.length === 0) return { failures: [], unexercised: noIdReason(exchanges, list.idProperty!) };
    const reads = [
      awaitListed(context, list, { query: whole.query, ids }, `${list.id} right after creating`).then((outcome) =>
        judgeAnswer(this.name, context, outcome, list.id, whole),
      ),
    ];
    if (filter) {
      const query = { ...whole.query, [filter.name]: String(value) };
      const what = `${list.id} with ${filter.name}=${value}`;
      reads.push(
        awaitListed(context, list, { query, ids }, `${what} right after creating`).then((outcome) =>
          judgeAnswer(this.name, context, outcome, what, { ...whole, query }),
        ),
      );
    }
    return { failures: (await Promise.all(reads)).flat() };
  },
};
