import { admitsNull } from '../../openapi/generate.js';
import { objectShape } from '../../openapi/schema-shape.js';
import type { PlannedOperation } from '../prepare/plan.js';
import { jsonBodyType } from '../prepare/request-builder.js';
import type { CheckContext, CheckFailure, ScenarioCheck } from '../types.js';
import { deleteAgain } from './delete-again.js';
import { listedAfterDelete } from './deleted-listing.js';
import { actionRequest, childCreates, documentsAny, itemActions, stateChanges } from './item-actions.js';
import { sameJson } from './same-json.js';
import { failure, show } from './failure.js';
import { mergedInto, mergesMembers, oneChangedMember } from './member-patches.js';
import { jsonBody } from './response-body.js';
import { isSuccess, statusText } from './response-status.js';

import {
  bodyFor,
  create,
  differences,
  isItem,
  itemRequest,
  readable,
  readSubject,
  type Item,
  type Subject,
} from './lifecycle-subject.js';

/**
 * Sends a change (PUT or PATCH) with `body` and reads the item back: what was written must show,
 * `expected` (the body itself for a replace, merged into the item for an update).
 */
async function change(
  context: CheckContext,
  operation: PlannedOperation,
  subject: Subject,
  { body, expected }: { body: Item; expected: Item },
  check: string,
): Promise<CheckFailure[]> {
  const verb = operation.operation.method.toUpperCase();
  const sent = await context.send({
    ...itemRequest(context, operation, subject, `${verb} of created ${show(subject.id)}`),
    body: { value: body },
  });
  // A refused change is judged by the response checks; only an applied one can be read back.
  if (!isSuccess(sent)) return [];
  subject.written = expected;
  const read = await readSubject(context, subject, `reading ${show(subject.id)} after its ${verb}`);
  if (!read) return [];
  const wrong = isSuccess(read)
    ? differences(expected, jsonBody(read), readable(context))
    : [`read answered ${statusText(read)}`];
  if (wrong.length === 0) return [];
  const what = verb === 'PATCH' ? 'changed or lost' : 'not applied';
  return [
    failure(check, 'error', read, `${verb} ${operation.id} ${what}: ${wrong.slice(0, 4).join('; ')}`, {
      expected: show(expected),
      actual: isSuccess(read) ? show(jsonBody(read)) : statusText(read),
    }),
  ];
}

/**
 * PATCH one property the body may carry (besides what it requires): the others must stay as
 * written. A required part that changes nothing (the item's own `type` and `id`) is not a change:
 * one property more is sent with it, a nested object narrowed to one member where members merge.
 */
function patchBody(context: CheckContext, update: PlannedOperation, subject: Subject): Item {
  const required = bodyFor(context, update, subject, 'required');
  const compared = readable(context);
  const changes = (body: Item) =>
    Object.entries(body).filter(([name, value]) => compared(name, value) && !sameJson(value, subject.written[name]));
  if (changes(required).length > 0) return required;
  const all = changes(bodyFor(context, update, subject, 'all'));
  const [name, value] = all.find(([, candidate]) => typeof candidate === 'string') ?? all[0] ?? [];
  if (name === undefined) return required;
  return {
    ...required,
    [name]: mergesMembers(update.operation) ? oneChangedMember(value, subject.written[name]) : value,
  };
}

/** The item after a PATCH of `body`: merged in, nested objects member by member where the media type says so. */
function expectedAfter(update: PlannedOperation, subject: Subject, body: Item): Item {
  return mergesMembers(update.operation) ? mergedInto(subject.written, body) : { ...subject.written, ...body };
}

/**
 * A merge patch (RFC 7396 §2) removes a member it sets to null: one property the item holds and
 * the PATCH body lets be null is patched to null, and must then read back absent (or null).
 */
async function mergePatchNull(
  context: CheckContext,
  update: PlannedOperation,
  subject: Subject,
  check: string,
): Promise<CheckFailure[]> {
  if (jsonBodyType(update.operation) !== 'application/merge-patch+json') return [];
  const { properties } = objectShape(update.body!.schema);
  const compared = readable(context);
  const name = Object.keys(properties).find((candidate) => {
    const held = subject.written[candidate];
    return admitsNull(properties[candidate]) && held !== undefined && held !== null && compared(candidate, held);
  });
  if (name === undefined) return [];
  const patched = await context.send({
    ...itemRequest(context, update, subject, `PATCH of created ${show(subject.id)} removing ${name} (null)`),
    body: { value: { [name]: null } },
  });
  if (!isSuccess(patched)) return [];
  delete subject.written[name];
  const read = await readSubject(context, subject, `reading ${show(subject.id)} after ${name} was patched to null`);
  const body = read && isSuccess(read) ? jsonBody(read) : undefined;
  if (!isItem(body) || body[name] === undefined || body[name] === null) return [];
  return [
    failure(check, 'error', read, `PATCH ${update.id} with ${name}: null kept ${name}`, {
      expected: `${name} removed (absent or null): a merge patch's null removes the member`,
      actual: `${name} ${show(body[name])}`,
    }),
  ];
}

/** What deleting the subject showed: the findings, whether the item is gone (404/410), or why undecided. */
interface Removal {
  failures: CheckFailure[];
  gone: boolean;
  undecided?: string;
}

async function remove(context: CheckContext, subject: Subject, check: string): Promise<Removal> {
  const collection = context.plan.collection(context.operation.collection!);
  const request = (purpose: string) => itemRequest(context, collection.delete!, subject, purpose);
  const deleted = await context.send(request(`DELETE of created ${show(subject.id)}`));
  // 5xx: not-a-server-error's finding; the item may still be there, so nothing more to judge.
  if (!deleted.response || deleted.response.status >= 500) return { failures: [], gone: false };
  if (!isSuccess(deleted))
    return {
      failures: [
        failure(check, 'error', deleted, `DELETE of created ${show(subject.id)} was refused`, {
          expected: 'a 2xx: the item this run created is deletable',
          actual: statusText(deleted),
        }),
      ],
      gone: false,
    };
  if (!collection.read) return deleteAgain(context, collection.delete!, request, show(subject.id), check);
  const read = await readSubject(context, subject, `reading ${show(subject.id)} after its DELETE`, 'absent');
  const status = read?.response?.status;
  if (!read || status === undefined) return { failures: [], gone: false };
  if (status === 404 || status === 410) return { failures: [], gone: true };
  const documented = collection.read.operation.responses.some((response) => response.status === String(status));
  const still = isSuccess(read);
  const severity = !still && documented ? 'warning' : 'error';
  const title = still
    ? `deleted ${show(subject.id)} is still readable`
    : `deleted ${show(subject.id)} reads as ${status}`;
  return {
    failures: [
      failure(check, severity, read, title, {
        expected: '404 or 410 after a successful DELETE',
        actual: statusText(read),
      }),
    ],
    gone: false,
  };
}

/**
 * Each action on the item (`POST …/{id}/payment`) and each create under it (`POST …/{id}/comments`)
 * once the item is gone: it acts on nothing, or adds to nothing, so it must be refused. An error
 * where the operation documents 404 or 410, else a warning.
 */
async function actionsAfterDelete(context: CheckContext, subject: Subject, check: string): Promise<CheckFailure[]> {
  const failures: CheckFailure[] = [];
  const collection = context.operation.collection!;
  const posts = [...itemActions(context.plan, collection), ...childCreates(context.plan, collection)];
  for (const action of posts) {
    const purpose = `${action.id} on deleted ${show(subject.id)}`;
    const exchange = await context.send({ ...actionRequest(context, action, subject, purpose), intent: 'absent' });
    if (!isSuccess(exchange)) continue;
    const severity = documentsAny(action, [404, 410]) ? 'error' : 'warning';
    failures.push(
      failure(check, severity, exchange, `${action.id} acted on deleted ${show(subject.id)}`, {
        expected: 'a 4xx (404 or 410): the item was deleted',
        actual: statusText(exchange),
      }),
    );
  }
  return failures;
}

/**
 * Each action that moves the item's state (`/status: "held" → "paid"`) and documents 409, sent
 * twice to a fresh item: the second finds the item already moved, and the document has a status
 * for that conflict. Actions that move no visible state (a deposit, a comment) may repeat.
 */
async function actionsTwice(context: CheckContext, check: string): Promise<CheckFailure[]> {
  const failures: CheckFailure[] = [];
  const itemSchema = context.operation.resource?.itemSchema;
  for (const action of itemActions(context.plan, context.operation.collection!)) {
    if (!documentsAny(action, [409])) continue;
    const subject = await create(context, `creating an item to ${action.id} twice`);
    if (typeof subject === 'string') continue;
    const before = await readSubject(context, subject, `reading ${show(subject.id)} before its ${action.id}`);
    const first = await context.send(actionRequest(context, action, subject, `${action.id} of ${show(subject.id)}`));
    if (!before || !isSuccess(before) || !isSuccess(first)) continue;
    const after = await readSubject(context, subject, `reading ${show(subject.id)} after its ${action.id}`);
    if (!after || !isSuccess(after)) continue;
    const moved = stateChanges(itemSchema, jsonBody(before), jsonBody(after));
    if (moved.length === 0) continue;
    const again = await context.send({
      ...actionRequest(context, action, subject, `${action.id} of ${show(subject.id)} again`),
      intent: 'invalid',
    });
    if (!isSuccess(again)) continue;
    failures.push(
      failure(check, 'error', again, `${action.id} was accepted twice for ${show(subject.id)}`, {
        expected: `the documented 409: the first moved ${moved.join(', ')}`,
        actual: statusText(again),
      }),
    );
  }
  return failures;
}

/**
 * The life of one item: created, replaced (PUT), updated (PATCH), deleted, each step read back.
 * A change must show, a PATCH must keep what it did not touch, and a deleted item is gone (404/410).
 */
export const resourceLifecycle: ScenarioCheck = {
  name: 'resource-lifecycle',
  kind: 'scenario',
  severity: 'error',
  description: 'a created item can be replaced, updated and deleted, each step visible when read back',
  skipReason(operation, plan, settings) {
    if (operation.role !== 'create' || !operation.collection || !operation.idProperty)
      return 'not an operation that creates identified resources';
    if (!operation.returnsItem) return 'the create documents no resource in its response';
    if (settings.readOnly) return 'read-only run';
    const { read, list, replace, update, delete: remover } = plan.collection(operation.collection);
    // Without a read, a DELETE still shows itself to a second DELETE; a list is list-freshness's.
    if (!read && (list || !remover)) return 'no operation reads one resource by id';
    return replace?.body || update?.body || remover ? undefined : 'no PUT, PATCH or DELETE on its items';
  },
  async run(context) {
    const subject = await create(context);
    if (typeof subject === 'string') return { failures: [], unexercised: subject };
    const { read, replace, update, delete: remover } = context.plan.collection(context.operation.collection!);
    const failures: CheckFailure[] = [];
    if (!read) {
      const removal = await remove(context, subject, this.name);
      const after = removal.gone ? await actionsAfterDelete(context, subject, this.name) : [];
      return { failures: [...removal.failures, ...after], unexercised: removal.undecided };
    }
    if (replace?.body) {
      const body = bodyFor(context, replace, subject, 'all');
      failures.push(...(await change(context, replace, subject, { body, expected: body }, this.name)));
    }
    if (update?.body) {
      const body = patchBody(context, update, subject);
      if (Object.keys(body).length > 0)
        failures.push(
          ...(await change(
            context,
            update,
            subject,
            { body, expected: expectedAfter(update, subject, body) },
            this.name,
          )),
        );
      failures.push(...(await mergePatchNull(context, update, subject, this.name)));
    }
    if (remover) {
      const removal = await remove(context, subject, this.name);
      failures.push(...removal.failures);
      if (removal.gone) {
        failures.push(...(await listedAfterDelete(context, subject, this.name)));
        failures.push(...(await actionsAfterDelete(context, subject, this.name)));
      }
    }
    failures.push(...(await actionsTwice(context, this.name)));
    return { failures };
  },
};
