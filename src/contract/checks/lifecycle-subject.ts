// The item a lifecycle follows: created as a client would, its item requests and reads, and how
// what was written compares with what reads back.
import { validObject } from '../../openapi/generate.js';
import { objectShape } from '../../openapi/schema-shape.js';
import { fits } from '../../openapi/value-fits.js';
import type { PlannedOperation } from '../prepare/plan.js';
import type { CheckContext, Exchange, Intent, RequestSpec } from '../types.js';
import { idParameter } from './ids.js';
import { show } from './failure.js';
import { generation, identitiesOf } from './generation.js';
import { holdsMembers, keptWithin } from './member-patches.js';
import { jsonBody } from './response-body.js';
import { isSuccess, statusText } from './response-status.js';
import { validRequest } from './valid-request.js';

export type Item = Record<string, unknown>;

/** One item this check created, and where it lives (parent keys of a sub-resource included). */
export interface Subject {
  id: unknown;
  pathParams: Record<string, string>;
  /** What the client last wrote: the create body, then the PUT body, then merged PATCHes. */
  written: Item;
}

export const isItem = (value: unknown): value is Item =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/** A request to an item operation of the subject's collection, its path naming the subject. */
export function itemRequest(
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
export function readable(context: CheckContext): (name: string, value: unknown) => boolean {
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
export function differences(
  written: Item,
  read: unknown,
  compared: (name: string, value: unknown) => boolean,
): string[] {
  if (!isItem(read)) return ['the body is not an object'];
  return Object.entries(written)
    .filter(([name, value]) => compared(name, value) && !keptWithin(value, read[name]))
    .map(([name, value]) => `/${name} written ${show(value)}, read ${name in read ? show(read[name]) : '(absent)'}`);
}

/** A fresh valid body for `operation` (all its properties), naming the subject where the body carries its key. */
export function bodyFor(
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
export async function create(
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
export async function readSubject(
  context: CheckContext,
  subject: Subject,
  purpose: string,
  intent: Intent = 'valid',
): Promise<Exchange | undefined> {
  const read = context.plan.collection(context.operation.collection!).read!;
  const exchange = await context.send({ ...itemRequest(context, read, subject, purpose), intent });
  return exchange.response && exchange.response.status < 500 ? exchange : undefined;
}
