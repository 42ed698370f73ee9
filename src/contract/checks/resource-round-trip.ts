import { validBodies } from '../prepare/generate.js';
import type { CheckContext, CheckFailure, Exchange, ScenarioCheck } from '../types.js';
import { awaitListed } from './awaited-listing.js';
import { idKey } from './ids.js';
import { sentDifferences } from './shown-properties.js';
import { unexercisedUnlessSuccess } from './unexercised.js';
import { rememberCreated } from './created-writes.js';
import { failure, show } from './failure.js';
import { generation } from './generation.js';
import { readById } from './read-by-id.js';
import { jsonBody } from './response-body.js';
import { isSuccess, statusText } from './response-status.js';
import { validRequest } from './valid-request.js';

async function readBack(
  context: CheckContext,
  id: unknown,
  sent: Record<string, unknown>,
  check: string,
  parents: Record<string, string>,
): Promise<CheckFailure[]> {
  const read = context.plan.collection(context.operation.collection!).read;
  if (!read) return [];
  const exchange = await readById(context, read, id, `reading back created ${String(id)}`, { parents });
  // A 5xx or no answer is not-a-server-error's finding; counting it here too would report it twice.
  if (!exchange.response || exchange.response.status >= 500) return [];
  if (!isSuccess(exchange))
    return [
      failure(check, 'error', exchange, `created resource ${String(id)} cannot be read back`, {
        operationId: context.operation.id,
        expected: 'a 2xx with the created resource',
        actual: statusText(exchange),
      }),
    ];
  const body = jsonBody(exchange);
  const wrong = sentDifferences(
    context,
    { ...sent, ...(context.operation.idProperty ? { [context.operation.idProperty]: id } : {}) },
    exchange,
    true,
  );
  return wrong.length === 0
    ? []
    : [
        failure(check, 'error', exchange, `resource ${String(id)} read back differs: ${wrong.join('; ')}`, {
          operationId: context.operation.id,
          expected: show(sent),
          actual: show(body),
        }),
      ];
}

/** The item a create made: its id, the body sent and the parents it was created under. */
interface CreatedItem {
  id: unknown;
  sent: Record<string, unknown>;
  parents: Record<string, string>;
}

async function findInList(
  context: CheckContext,
  { id, sent, parents }: CreatedItem,
  check: string,
  patience: { patient: boolean },
): Promise<CheckFailure[]> {
  const list = context.plan.collection(context.operation.collection!).list;
  const idProperty = context.operation.idProperty;
  if (!list || !idProperty) return [];
  const filter = list.filters.find((candidate) => typeof sent[candidate.property] === 'string');
  const query: Record<string, string> = {};
  if (filter) query[filter.name] = String(sent[filter.property]);
  if (list.limit?.maximum !== undefined) query[list.limit.name] = String(list.limit.maximum);
  // Re-read a while before calling it missing: a list that lags its writes is list-freshness's warning.
  const listed = await awaitListed(
    context,
    list,
    { query, ids: [idKey(id)] },
    `listing to find created ${String(id)}`,
    { patient: patience.patient, parents },
  );
  if (listed.missing.length > 0) patience.patient = false;
  const { exchange, items } = listed;
  const cap = list.limit?.maximum ?? list.limit?.default;
  if (!isSuccess(exchange) || !items || cap === undefined || items.length >= cap) return [];
  const found = listed.missing.length === 0;
  if (found) return [];
  return [
    failure(
      check,
      'error',
      exchange,
      `created resource ${String(id)} is missing from ${list.id}${filter ? ` filtered by ${filter.name}` : ''}`,
      {
        operationId: context.operation.id,
        expected: `an item with ${idProperty} ${String(id)}`,
        actual: `${items.length} items without it, after ${listed.reads} reads over ${listed.waitedMs} ms`,
      },
    ),
  ];
}

/**
 * The create's own answer differs from what was sent. An error where the document names the
 * created item's key (the answer shows a kept item: `POST /tickets` → `{ticketId, eventId}`); a
 * warning where it names none (`POST /payments/{ref}/captures`, `POST /events/send`): an action's
 * answer, which the document does not promise to echo the request in (docs/contract-checks.md).
 */
function answerDiffers(
  context: CheckContext,
  check: string,
  created: Exchange,
  sent: Record<string, unknown>,
  wrong: string[],
): CheckFailure {
  const kept = context.operation.idProperty !== undefined;
  const title = kept
    ? `create response differs from what was sent: ${wrong.join('; ')}`
    : `the answer of a create whose items have no key differs from what was sent: ${wrong.join('; ')}`;
  return failure(check, kept ? 'error' : 'warning', created, title, {
    expected: show(sent),
    actual: show(jsonBody(created)),
  });
}

/** A created resource comes back as sent: in the create response, and when read by id and in the list where the document has them. */
export const resourceRoundTrip: ScenarioCheck = {
  name: 'resource-round-trip',
  kind: 'scenario',
  severity: 'error',
  description: 'a created resource is readable with equal fields',
  skipReason(operation, _plan, settings) {
    if (operation.role !== 'create' || !operation.collection) return 'not an operation that creates resources';
    if (!operation.returnsItem) return 'the create documents no resource in its response';
    // Without a read or a list, the create's own answer still shows what was kept.
    return settings.readOnly ? 'read-only run' : undefined;
  },
  async run(context) {
    const base = validRequest(context, context.operation, 'a create');
    const failures: CheckFailure[] = [];
    const patience = { patient: true };
    const creates: Exchange[] = [];
    const body = context.operation.body!;
    const validate = context.plan.validators.at(body.pointer, 'request');
    for (const { label, value: generated } of validBodies(body.schema, generation(context), validate).slice(
      0,
      context.settings.maxExamples,
    )) {
      if (generated === null || typeof generated !== 'object' || Array.isArray(generated)) continue;
      const value = generated as Record<string, unknown>;
      const created: Exchange = await context.send({ ...base, body: { value }, purpose: `creating (${label})` });
      creates.push(created);
      if (!isSuccess(created)) continue;
      rememberCreated(context, value, created);
      const body = jsonBody(created);
      const wrong = sentDifferences(context, value, created);
      if (wrong.length > 0) failures.push(answerDiffers(context, this.name, created, value, wrong));
      const id =
        context.operation.idProperty && body !== null && typeof body === 'object'
          ? (body as Record<string, unknown>)[context.operation.idProperty]
          : undefined;
      if (id === undefined) continue;
      failures.push(
        ...(await readBack(context, id, value, this.name, base.pathParams ?? {})),
        ...(await findInList(context, { id, sent: value, parents: base.pathParams ?? {} }, this.name, patience)),
      );
    }
    return { failures, unexercised: unexercisedUnlessSuccess(creates, 'create') };
  },
};
