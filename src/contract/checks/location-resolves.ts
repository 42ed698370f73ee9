import { noSuccessReason } from './unexercised.js';
import type { PlannedOperation } from '../prepare/plan.js';
import type { CheckContext, CheckFailure, Exchange, ScenarioCheck } from '../types.js';
import { idKey, idOf } from './ids.js';
import { rememberCreated } from './created-writes.js';
import { failure, show } from './failure.js';
import { sentDifferences } from './shown-properties.js';
import { generation, testDataBody } from './generation.js';
import { readById } from './read-by-id.js';
import { jsonBody } from './response-body.js';
import { isSuccess, statusText } from './response-status.js';

/** Creates made to follow their Location: two at once, so a Location taken from shared state shows. */
const CREATES = 2;

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** A path template as a pattern: each `{name}` one captured segment. */
function templatePattern(template: string): string {
  return escapeRegExp(template).replace(/\\\{[^}]+\\\}/g, '([^/]+)');
}

/**
 * What the server's URL puts before the document's paths: the request path less the part its
 * template matched (`/customers/1/addresses` under `/api` for `/customers/{id}/addresses`).
 */
function basePathOf(requestPath: string, template: string): string {
  const match = new RegExp(`${templatePattern(template)}/?$`).exec(requestPath);
  return match ? requestPath.slice(0, match.index) : '';
}

/** The read operation's path parameter named by `location`, or why it names none. */
function pathParameterOf(
  location: string,
  created: Exchange,
  read: PlannedOperation,
): { value: string; parents: Record<string, string> } | { problem: string } {
  const requestUrl = new URL(created.request.url);
  let target: URL;
  try {
    target = new URL(location, requestUrl);
  } catch {
    return { problem: 'is not a URI reference' };
  }
  if (target.origin !== requestUrl.origin) return { problem: `points to another origin (${target.origin})` };
  const base = basePathOf(requestUrl.pathname, created.operation.operation.path);
  const match = new RegExp(`^${escapeRegExp(base)}${templatePattern(read.operation.path)}/?$`).exec(target.pathname);
  if (!match) return { problem: `names no resource of ${read.id} (${read.operation.path} under ${base || '/'})` };
  try {
    // The last path parameter is the item's own: earlier ones name its parents, which the read
    // is sent under (the Location's, not ones the run knows of).
    const values = match.slice(1).map((text) => decodeURIComponent(text));
    const names = [...read.operation.path.matchAll(/\{([^}]+)\}/g)].map((found) => found[1]!);
    const parents = Object.fromEntries(names.slice(0, -1).map((name, index) => [name, values[index]!]));
    return { value: values[values.length - 1]!, parents };
  } catch {
    return { problem: 'has a malformed percent-encoding' };
  }
}

/**
 * Where the create's answer names no item, what the Location led to must show what was sent (its
 * key aside: a server may choose its own): else it is another item.
 */
function anotherItem(check: string, context: CheckContext, read: Exchange, sent: unknown): CheckFailure[] {
  if (sent === null || typeof sent !== 'object' || Array.isArray(sent)) return [];
  const { [context.operation.idProperty!]: _key, ...fields } = sent as Record<string, unknown>;
  const wrong = sentDifferences(context, fields, read);
  if (wrong.length === 0) return [];
  return [
    failure(check, 'error', read, `the Location of a 201 leads to another item: ${wrong.join('; ')}`, {
      expected: `the item created with ${show(sent)}`,
      actual: show(jsonBody(read)),
    }),
  ];
}

async function follow(
  check: string,
  context: CheckContext,
  read: PlannedOperation,
  { created, sent }: { created: Exchange; sent: unknown },
): Promise<CheckFailure[]> {
  const location = created.response?.headers.location;
  if (location === undefined) return [];
  const idProperty = context.operation.idProperty!;
  const id = idOf(jsonBody(created), idProperty);
  const target = pathParameterOf(location, created, read);
  if ('problem' in target)
    return [
      failure(check, 'warning', created, `the Location of a 201 ${target.problem}`, {
        expected: `the URL of ${read.id} for ${idProperty} ${show(id)}`,
        actual: location,
      }),
    ];
  const exchange = await readById(context, read, target.value, `following Location ${location}`, {
    parents: target.parents,
  });
  const got = idOf(jsonBody(exchange), idProperty);
  // A create that returns no item (`201` with no body) names its resource only by the Location.
  if (isSuccess(exchange) && id === undefined) return anotherItem(check, context, exchange, sent);
  if (isSuccess(exchange) && idKey(got) === idKey(id)) return [];
  return [
    failure(check, 'error', exchange, `the Location of a 201 does not lead to the created resource`, {
      expected: `${read.id} answering ${idProperty} ${show(id)}`,
      actual: `Location ${location}: ${statusText(exchange)}${isSuccess(exchange) ? ` with ${idProperty} ${show(got)}` : ''}`,
    }),
  ];
}

/** A 201's Location header, when present (it is optional), leads to the resource just created. */
export const locationResolves: ScenarioCheck = {
  name: 'location-resolves',
  kind: 'scenario',
  severity: 'error',
  description: 'the Location of a 201, when present, leads to the created resource',
  skipReason(operation, plan, settings) {
    if (operation.role !== 'create' || !operation.collection || !operation.idProperty)
      return 'not an operation that creates identified resources';
    if (settings.readOnly) return 'read-only run';
    return plan.collection(operation.collection).read ? undefined : 'no operation reads one resource by id';
  },
  async run(context) {
    const { operation } = context;
    const read = context.plan.collection(operation.collection!).read!;
    const bodies = Array.from({ length: CREATES }, () => testDataBody(operation.body!.schema, generation(context)));
    const creates = await Promise.all(
      bodies.map((value, index) =>
        context.send({
          operation,
          intent: 'valid',
          purpose: `a create to follow its Location (${index + 1})`,
          body: { value },
        }),
      ),
    );
    creates.forEach((exchange, index) => rememberCreated(context, bodies[index]!, exchange));
    const withLocation = creates
      .map((created, index) => ({ created, sent: bodies[index] }))
      .filter(({ created }) => created.response?.status === 201 && created.response.headers.location);
    if (!creates.some(isSuccess)) return { failures: [], unexercised: noSuccessReason(creates, 'create') };
    if (withLocation.length === 0)
      return { failures: [], skipped: 'no 201 carried a Location header (it is optional)' };
    return {
      failures: (await Promise.all(withLocation.map((created) => follow(this.name, context, read, created)))).flat(),
    };
  },
};
