import { validObject } from '../../openapi/generate.js';
import { objectShape } from '../../openapi/schema-shape.js';
import { fits } from '../../openapi/value-fits.js';
import type { PlannedOperation } from '../prepare/plan.js';
import type { CheckContext, CheckFailure, Exchange, Intent, RequestSpec, ScenarioCheck } from '../types.js';
import { idParameter } from './ids.js';
import { listedAfterDelete } from './deleted-listing.js';
import { actionRequest, documentsAny, itemActions, stateChanges } from './item-actions.js';
import { sameJson } from './same-json.js';
import { failure, show } from './failure.js';
import { generation, identitiesOf } from './generation.js';
import { holdsMembers, keptWithin, mergedInto, mergesMembers, oneChangedMember } from './member-patches.js';
import { jsonBody } from './response-body.js';
import { isSuccess, statusText } from './response-status.js';
import { validRequest } from './valid-request.js';

type Item = Record<string, unknown>;

/** One item this check created, and where it lives (parent keys of a sub-resource included). */
interface Subject {
  id: unknown;
  pathParams: Record<string, string>;
  /** What the client last wrote: the create body, then the PUT body, then merged PATCHes. */
  written: Item;
}

const isItem = (value: unknown): value is Item => value !== null && typeof value === 'object' && !Array.isArray(value);

/** A request to an item operation of the subject's collection, its path naming the subject. */
function itemRequest(
  context: CheckContext,
  operation: PlannedOperation,
  subject: Subject,
  purpose: string,
): RequestSpec {
  const base = validRequest({ ...context, operation }, operation, purpose);
  const name = idParameter(operation)?.name ?? 'id';
  return {
    ...base,
    body: undefined,
    pathParams: { ...base.pathParams, ...subject.pathParams, [name]: String(subject.id) },
  };
}

/**
 * Properties to read back: those written, except identities (the server's to assign) and those the
 * item schema does not show (undeclared, or writeOnly like a password).
 */
function readable(context: CheckContext): (name: string, value: unknown) => boolean {
  const skip = identitiesOf(context);
  const { properties } = objectShape(context.operation.resource?.itemSchema);
  const declared = Object.keys(properties).length > 0;
  return (name, value) => {
    const schema = properties[name];
    const hidden = declared && (schema === undefined || (typeof schema === 'object' && schema.writeOnly === true));
    // A value the item schema cannot hold (a number written, an `Amount` read) is turned into another;
    // some members of an object (what a PATCH writes of `attributes`) are compared member by member.
    return !skip.includes(name) && !hidden && (fits(value, schema) || holdsMembers(value, schema));
  };
}

/** Properties written that read back different. */
function differences(written: Item, read: unknown, compared: (name: string, value: unknown) => boolean): string[] {
  if (!isItem(read)) return ['the body is not an object'];
  return Object.entries(written)
    .filter(([name, value]) => compared(name, value) && !keptWithin(value, read[name]))
    .map(([name, value]) => `/${name} written ${show(value)}, read ${name in read ? show(read[name]) : '(absent)'}`);
}

/** A fresh valid body for `operation` (all its properties), naming the subject where the body carries its key. */
function bodyFor(
  context: CheckContext,
  operation: PlannedOperation,
  subject: Subject,
  which: 'required' | 'all',
): Item {
  const value = validObject(operation.body!.schema, generation({ ...context, operation }), which);
  const key = context.operation.idProperty!;
  if (key in value) value[key] = subject.id;
  return value;
}

/** Creates tried before the check gives up: a refusal may be the data's (a sold-out show), not the deployment's. */
const CREATE_TRIES = 3;

async function createOnce(context: CheckContext, purpose: string): Promise<Subject | string> {
  const { operation } = context;
  const request = validRequest(context, operation, purpose);
  const sent = validObject(operation.body!.schema, generation(context), 'all');
  const exchange = await context.send({ ...request, body: { value: sent } });
  const returned = jsonBody(exchange);
  if (!isSuccess(exchange) || !isItem(returned)) return `the create answered ${statusText(exchange)}`;
  const id = returned[operation.idProperty!];
  if (id === undefined || id === null) return `the created item has no ${operation.idProperty}`;
  return { id, pathParams: request.pathParams ?? {}, written: { ...sent } };
}

/** Creates an item as a client would: a refused body is followed by another (other references, other values). */
async function create(
  context: CheckContext,
  purpose = 'creating an item to change and delete',
): Promise<Subject | string> {
  let outcome: Subject | string = 'no create was sent';
  for (let tries = 0; tries < CREATE_TRIES; tries += 1) {
    outcome = await createOnce(context, purpose);
    if (typeof outcome !== 'string') return outcome;
  }
  return outcome;
}

/** Reads the subject (`absent` once deleted); undefined when the read could not be judged (no answer, a 5xx). */
async function readSubject(
  context: CheckContext,
  subject: Subject,
  purpose: string,
  intent: Intent = 'valid',
): Promise<Exchange | undefined> {
  const read = context.plan.collection(context.operation.collection!).read!;
  const exchange = await context.send({ ...itemRequest(context, read, subject, purpose), intent });
  return exchange.response && exchange.response.status < 500 ? exchange : undefined;
}

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

/** What deleting the subject showed: the findings, and whether the item is gone (404/410 on read). */
interface Removal {
  failures: CheckFailure[];
  gone: boolean;
}

async function remove(context: CheckContext, subject: Subject, check: string): Promise<Removal> {
  const collection = context.plan.collection(context.operation.collection!);
  const deleted = await context.send(
    itemRequest(context, collection.delete!, subject, `DELETE of created ${show(subject.id)}`),
  );
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
  const read = await readSubject(context, subject, `reading ${show(subject.id)} after its DELETE`, 'absent');
  const status = read?.response?.status;
  if (!read || status === undefined) return { failures: [], gone: false };
  if (status === 404 || status === 410) return { failures: [], gone: true };
  const documented = collection.read!.operation.responses.some((response) => response.status === String(status));
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
 * Each action on the item (`POST …/{id}/payment`) once the item is gone: it acts on nothing, so
 * it must be refused. An error where the action documents 404 or 410, else a warning.
 */
async function actionsAfterDelete(context: CheckContext, subject: Subject, check: string): Promise<CheckFailure[]> {
  const failures: CheckFailure[] = [];
  for (const action of itemActions(context.plan, context.operation.collection!)) {
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
    const { read, replace, update, delete: remover } = plan.collection(operation.collection);
    if (!read) return 'no operation reads one resource by id';
    return replace?.body || update?.body || remover ? undefined : 'no PUT, PATCH or DELETE on its items';
  },
  async run(context) {
    const subject = await create(context);
    if (typeof subject === 'string') return { failures: [], unexercised: subject };
    const { replace, update, delete: remover } = context.plan.collection(context.operation.collection!);
    const failures: CheckFailure[] = [];
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
