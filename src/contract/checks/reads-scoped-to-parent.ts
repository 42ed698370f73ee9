import { stringifyJson } from '../../core/json.js';
import type { PlannedOperation } from '../prepare/plan.js';
import type { CheckContext, CheckFailure, Exchange, ScenarioCheck } from '../types.js';
import { failure, show } from './failure.js';
import { createdUnderOther, parentMember, type ParentPair } from './parent-member.js';
import { idKey } from './ids.js';
import { documentsAny } from './item-actions.js';
import { collectionOfPathParameter, fitsParameter, parentsInScope } from './path-values.js';
import { readById } from './read-by-id.js';
import { jsonBody } from './response-body.js';
import { isSuccess, statusText } from './response-status.js';
import { sameJson } from './same-json.js';

/** An item the run knows, with the parents it lives under (`{board_id: "7"}`). */
interface Placed {
  id: unknown;
  parents: Record<string, string>;
}

/** The read's parent path parameters, outermost first, when it reads an item of a sub-collection. */
function parentNames(operation: PlannedOperation): string[] {
  const resource = operation.resource;
  if (operation.role !== 'read' || !resource || resource.itemPath !== operation.operation.path) return [];
  return resource.parentParameters.filter((name) => name !== resource.itemParameter);
}

function holdsAll(parents: Readonly<Record<string, string>> | undefined, names: readonly string[]): boolean {
  return parents !== undefined && names.every((name) => typeof parents[name] === 'string');
}

/**
 * Items whose parents the run knows for sure: those it created under a parent, with a key the
 * server chose (a key the client sent may name something that belongs to several parents, a user
 * in two teams). An item only seen under a parent proves less: a collection nobody creates in may
 * be answered the same under every parent (a document's canned example, kennel serve's own).
 */
function placedItems(context: CheckContext, names: readonly string[]): Placed[] {
  const collection = context.operation.collection!;
  const create = context.plan.collection(collection).create;
  const placed = (context.state.created.get(collection) ?? [])
    .filter((resource) => resource.id !== undefined && !stringifyJson(resource.sent).includes(String(resource.id)))
    .map((resource) => ({
      id: resource.id,
      parents: create ? parentsInScope(resource.scope, create.operation.path) : {},
    }))
    .filter((item) => holdsAll(item.parents, names));
  const unique = new Map(placed.map((item) => [idKey(item.id), item]));
  return [...unique.values()];
}

/**
 * The parents the deployment showed for the innermost parent parameter (those the run's items
 * live under, then the parent collection's keys), once each, as path text that fits it.
 */
function parentValues(context: CheckContext, names: readonly string[], placed: readonly Placed[]): string[] {
  const { operation, plan } = context;
  const name = names.at(-1)!;
  const parameter = operation.parameters.find((candidate) => candidate.in === 'path' && candidate.name === name);
  if (!parameter) return [];
  const parents = collectionOfPathParameter(plan, operation, parameter);
  const values = new Set([
    ...placed.map((other) => other.parents[name]!),
    ...context.state.pool.ids(parents).map(String),
  ]);
  return [...values].filter((value) => fitsParameter(plan, parameter, value));
}

/** A parent the item is not under, nor any of `avoided`. */
function otherParent(values: readonly string[], own: string, avoided: readonly string[] = []): string | undefined {
  return values.find((value) => value !== own && !avoided.includes(value));
}

/** The body without the members that only echo a parent's path value (`board_id`): what names the item. */
function itemOf(body: unknown, parentValues: readonly string[]): unknown {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return body;
  return Object.fromEntries(
    Object.entries(body).filter(([, value]) => !parentValues.includes(typeof value === 'object' ? '' : String(value))),
  );
}

function judge(check: string, control: Exchange, across: Exchange, parent: ParentPair): CheckFailure[] {
  if (!isSuccess(across)) return [];
  const body = jsonBody(across);
  if (body === null || typeof body !== 'object') return [];
  const echoes = [parent.own, parent.other];
  if (!sameJson(itemOf(jsonBody(control), echoes), itemOf(body, echoes))) return [];
  const operation = across.operation;
  const promised = documentsAny(operation, [404]);
  return [
    failure(
      check,
      promised ? 'error' : 'warning',
      across,
      `an item of ${parent.name} ${parent.own} was served under ${parent.name} ${parent.other}`,
      {
        expected: promised ? '404: the item is not under that parent' : 'a 4xx: the item is not under that parent',
        actual: `${statusText(across)} with the same item as under ${parent.name} ${parent.own}`,
      },
    ),
  ];
}

/**
 * A sub-resource lives under its parent: an item read under another parent
 * (`/boards/2/cards/{id}` for a card of board 1) is not that item. A lookup that ignores the
 * parent serves it anyway. Ids may be numbered per parent (issue 3 of each repository), so only an
 * answer that is the same item as under its own parent counts. Where the item names its parent
 * (`board_id`), one item created under the other parent names that parent.
 */
export const readsScopedToParent: ScenarioCheck = {
  name: 'reads-scoped-to-parent',
  kind: 'scenario',
  severity: 'error',
  description: 'an item of one parent is not served under another parent, and names its own parent',
  skipReason(operation) {
    if (operation.role !== 'read') return 'not an operation that reads one resource by id';
    return parentNames(operation).length > 0 ? undefined : 'not a read of an item under a parent';
  },
  async run(context: CheckContext) {
    const { operation } = context;
    const names = parentNames(operation);
    const name = names.at(-1)!;
    const placed = placedItems(context, names);
    const values = parentValues(context, names, placed);
    const item = placed.find((candidate) => otherParent(values, candidate.parents[name]!) !== undefined);
    if (!item)
      return {
        failures: [],
        unexercised: `the run knows no item of ${operation.collection} under one ${name} and another ${name} beside it`,
      };
    const other = otherParent(values, item.parents[name]!)!;
    const [control, across] = await Promise.all([
      readById(context, operation, item.id, `reading ${show(item.id)} under its own ${name}`, {
        parents: item.parents,
      }),
      readById(context, operation, item.id, `reading ${show(item.id)} under another ${name}, ${other}`, {
        parents: { ...item.parents, [name]: other },
        intent: 'absent',
      }),
    ]);
    if (!isSuccess(control))
      return {
        failures: [],
        unexercised: `${show(item.id)} did not read under its own ${name} (${statusText(control)})`,
      };
    const parent = { name, own: item.parents[name]!, other };
    const shown = jsonBody(control);
    const member = parentMember(shown, name, parent.own);
    // A parent the item already names wrongly (the first parent, whoever holds it) would hide the
    // fault when the new item is created under it.
    const named = member === undefined ? undefined : String((shown as Record<string, unknown>)[member]);
    const elsewhere = named === undefined ? undefined : otherParent(values, item.parents[name]!, [named]);
    return {
      failures: [
        ...judge(this.name, control, across, parent),
        ...(member && elsewhere
          ? await createdUnderOther(this.name, context, { ...parent, other: elsewhere }, member)
          : []),
      ],
    };
  },
};
