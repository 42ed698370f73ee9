import type { CheckContext, CheckFailure } from '../types.js';
import { failure, show } from './failure.js';
import { idKey } from './ids.js';
import { readList, searchOnly, wholeListQuery } from './list-reads.js';

/**
 * A deleted item (its read answers 404 or 410) is not listed either: a list read whole that still
 * shows it (a soft delete that forgot the list) is an error. Only a whole read proves it there: a
 * list whose limit documents no bound, a search, or a full page says nothing.
 */
export async function listedAfterDelete(
  context: CheckContext,
  subject: { id: unknown; pathParams: Record<string, string> },
  check: string,
): Promise<CheckFailure[]> {
  const { operation, plan } = context;
  const list = plan.collection(operation.collection!).list;
  const whole = list && !searchOnly(list) ? wholeListQuery(list) : undefined;
  if (!list || !whole || !operation.idProperty) return [];
  const purpose = `${list.id} after deleting ${show(subject.id)}`;
  const read = await readList(context, list, whole.query, purpose, subject.pathParams);
  if (!read.items || read.items.length >= whole.cap) return [];
  const key = idKey(subject.id);
  if (!read.items.some((item) => idKey(item[operation.idProperty!]) === key)) return [];
  return [
    failure(check, 'error', read.exchange, `deleted ${show(subject.id)} is still listed by ${list.id}`, {
      expected: `no item with ${operation.idProperty} ${show(subject.id)}: its read answers it is gone`,
      actual: `listed among ${read.items.length} items`,
    }),
  ];
}
