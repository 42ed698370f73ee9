import type { CheckContext, CheckFailure } from '../types.js';
import { failure, show } from './failure.js';
import { squashed } from '../../openapi/naming.js';
import { pathParamsAt } from '../prepare/url-operation.js';
import { jsonBody } from './response-body.js';
import { isSuccess } from './response-status.js';
import { createResources } from './test-data.js';

/** A sub-resource's parent: its path parameter, the parent the item was found under, another parent. */
export interface ParentPair {
  name: string;
  own: string;
  other: string;
}

/**
 * The body member that names the item's parent: named as the parent's path parameter
 * (`board_id` for `{board_id}`), or spelled otherwise (`boardId`) and holding the parent's value.
 */
export function parentMember(body: unknown, parameter: string, value: string): string | undefined {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return undefined;
  return Object.entries(body).find(
    ([member, held]) =>
      typeof held !== 'object' &&
      (member === parameter || (squashed(member) === squashed(parameter) && String(held) === value)),
  )?.[0];
}

function sentMember(text: string | undefined, member: string): boolean {
  try {
    const sent: unknown = JSON.parse(text ?? '');
    return sent !== null && typeof sent === 'object' && member in sent;
  } catch {
    return false;
  }
}

/**
 * Creates one item under the other parent and judges the member that names the parent: the new
 * item, where the server filled the member, names the parent it was created under (a serialiser
 * that writes a fixed or the first parent's key shows here).
 */
export async function createdUnderOther(
  check: string,
  context: CheckContext,
  parent: ParentPair,
  member: string,
): Promise<CheckFailure[]> {
  const create = context.plan.collection(context.operation.collection!).create;
  if (!create?.body || context.settings.readOnly) return [];
  const slot = [...create.operation.path.matchAll(/\{([^}/]+)\}/g)].at(-1)?.[1];
  if (slot === undefined) return [];
  const { exchanges } = await createResources(context, create, 1, { parents: { [slot]: parent.other } });
  const exchange = exchanges[0]!;
  const placed = pathParamsAt(create.operation.path, exchange.request.url)?.[slot];
  const body = jsonBody(exchange);
  if (!isSuccess(exchange) || placed !== parent.other || body === null || typeof body !== 'object') return [];
  const named = (body as Record<string, unknown>)[member];
  // A member the client sent is the client's word (a follower's own `user_id`), not the server's.
  if (named === undefined || String(named) === parent.other || sentMember(exchange.request.body, member)) return [];
  return [
    failure(
      check,
      'error',
      exchange,
      `an item created under ${parent.name} ${parent.other} names ${member} ${show(named)}`,
      { expected: `${member} ${parent.other}`, actual: `${member} ${show(named)}` },
    ),
  ];
}
