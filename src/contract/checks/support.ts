import { exactNumbers, stringifyJson } from '../../core/json.js';
import { isJsonMediaType, responseFor, type OperationResponse } from '../../openapi/operations.js';
import type { CheckPlan, PlannedOperation, PlannedParameter } from '../plan.js';
import { coerceParameter } from '../../openapi/parameter-value.js';
import { validObject, validValue, type ValueContext } from '../../openapi/generate.js';
import type { JsonSchema } from '../../openapi/openapi-types.js';
import { objectShape } from '../../openapi/schema-shape.js';
import { collectionNamedBy } from '../../openapi/reference-edges.js';
import { payloadOf } from '../payload.js';
import { ReferenceFiller } from '../reference-values.js';
import { defaultParameterValue, parameterText } from '../request-builder.js';
import { mediaBody } from '../media-bodies.js';
import type { SchemaView } from '../../openapi/validators.js';
import { idParameter } from './ids.js';
import { sameJson } from '../same-json.js';

export { sameJson };
import type { CheckContext, CheckFailure, Exchange, Intent, RequestSpec, RunSettings, Severity } from '../types.js';

/** A failure of `check` about `exchange`'s operation. */
export function failure(
  check: string,
  severity: Severity,
  exchange: Exchange | undefined,
  title: string,
  details: Partial<CheckFailure> = {},
): CheckFailure {
  return {
    check,
    severity,
    operationId: exchange?.operation.id ?? details.operationId ?? '?',
    title,
    exchange,
    ...details,
  };
}

/** `201`, or `no response (connection refused)`. */
export function statusText(exchange: Exchange): string {
  return exchange.response ? String(exchange.response.status) : `no response (${exchange.error ?? 'unknown'})`;
}

export function documentedResponse(exchange: Exchange): OperationResponse | undefined {
  return exchange.response && responseFor(exchange.operation.operation, exchange.response.status);
}

/** The documented statuses of an operation as text (`200, 401`). */
export function documentedStatuses(operation: PlannedOperation): string {
  return operation.operation.responses.map((response) => response.status).join(', ');
}

/** The media type the response declares (`application/xml`), lower case without parameters. */
export function declaredMediaType(exchange: Exchange): string | undefined {
  const header = exchange.response?.headers['content-type'];
  return header ? header.split(';')[0]!.trim().toLowerCase() || undefined : undefined;
}

/**
 * True when the response says its body is not JSON (XML, text, an image): checks that judge JSON
 * leave it to content-type-conformance, which judges the media type against the document.
 */
export function declaresNonJson(exchange: Exchange): boolean {
  const type = declaredMediaType(exchange);
  return type !== undefined && !isJsonMediaType(type);
}

/**
 * What a client reads from the response: the parsed JSON body, with a success's documented
 * envelope or wrapper taken off (a list's items, a wrapped item); undefined when absent or not
 * JSON. Checks of the body as sent (its schema) read `response.json` itself.
 */
export function jsonBody(exchange: Exchange): unknown {
  const json = exchange.response?.json;
  if (!json?.ok) return undefined;
  return isSuccess(exchange) ? payloadOf(exchange.operation, json.value) : json.value;
}

export function isSuccess(exchange: Exchange): boolean {
  return exchange.response !== undefined && exchange.response.status >= 200 && exchange.response.status < 300;
}

/**
 * How wrong it is to refuse a valid request: `severity` (the check's) when the document says it
 * must succeed, at most a warning when it is only plausible (docs/contract-checks.md, "Must accept").
 */
export function refusalSeverity(exchange: Exchange, severity: Severity = 'error'): Severity {
  return exchange.acceptance === 'plausible' ? 'warning' : severity;
}

export function isClientError(exchange: Exchange): boolean {
  return exchange.response !== undefined && exchange.response.status >= 400 && exchange.response.status < 500;
}

/** JSON text of a value for messages, bigint-safe and short. */
export function show(value: unknown, max = 300): string {
  const text = value === undefined ? 'undefined' : stringifyJson(value);
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

/** Validates a value against the schema at `pointer` as `view` reads it; returns "pointer message" lines. */
export function schemaIssues(
  plan: CheckPlan,
  pointer: string,
  value: unknown,
  view: SchemaView = 'plain',
): { pointer: string; message: string }[] {
  return plan.validators.at(pointer, view)(exactNumbers(value));
}

/** An id the deployment is known to have for `collection` (one this run created, unless `createdOnly` is false). */
export function knownId(
  context: CheckContext,
  collection: string | undefined,
  createdOnly = false,
  fits: (id: unknown) => boolean = () => true,
): unknown {
  if (!collection) return undefined;
  const created = context.state.created
    .get(collection)
    ?.find((resource) => resource.id !== undefined && fits(resource.id));
  return created?.id ?? (createdOnly ? undefined : context.state.pool.ids(collection).find(fits));
}

/**
 * The path parameter's schema allows `value` as path text (after the coercion a server applies):
 * an id the deployment gave for a collection may still break another operation's parameter
 * (a uuid-formatted `email_id` where emails are numbered), and a valid request must be valid.
 */
export function fitsParameter(plan: CheckPlan, parameter: PlannedParameter, value: unknown): boolean {
  const coerced = coerceParameter(String(value), parameter.resolved, parameter.explode);
  if (!coerced.ok) return false;
  return !parameter.schema || plan.validators.at(parameter.schema.pointer)(exactNumbers(coerced.value)).length === 0;
}

/**
 * The collection whose member a path parameter names: the operation's own collection for its item
 * parameter (`petId` of `/pets/{petId}`), else the collection the path names before it (`ownerId`
 * of `/owners/{ownerId}/pets`, a list's or a create's parent, names an owner, not a pet).
 */
export function collectionOfPathParameter(
  plan: CheckPlan,
  operation: PlannedOperation,
  parameter: PlannedOperation['parameters'][number],
): string | undefined {
  const resource = operation.resource;
  const ownItem = resource?.itemPath === operation.operation.path && resource.itemParameter === parameter.name;
  if (ownItem && operation.collection) return operation.collection;
  const collections = { has: (path: string) => plan.model.resources.some((known) => known.path === path) };
  return collectionNamedBy(operation.operation.path, parameter.name, collections);
}

/** The document has an operation that can tell the run ids of `collection`: a list or a create. */
export function documentsIdSource(plan: CheckPlan, collection: string | undefined): boolean {
  if (!collection) return false;
  const { list, create } = plan.collection(collection);
  return list !== undefined || create !== undefined;
}

/**
 * Known values for an operation's path parameters, each from the collection it names (a parent's
 * too). Reads and POSTs (adding to a resource) may use any known id; PUT and PATCH only resources
 * this run created (never change the deployment's own); a DELETE none (it would remove what later
 * checks read).
 */
export function knownPathValues(context: CheckContext, operation: PlannedOperation): Record<string, string> {
  return new ReferenceFiller(context, operation).pathParameters();
}

/**
 * A body to create test data with: the required properties only, or every property when the
 * schema requires none (`{}` is valid, but says nothing of what a deployment needs to create one).
 */
export function testDataBody(schema: JsonSchema, context: ValueContext): Record<string, unknown> {
  return validObject(schema, context, objectShape(schema).required.length > 0 ? 'required' : 'all');
}

/** A documented example of a parameter (its own, or its schema's), as text. */
function documentedText(parameter: PlannedParameter): string | undefined {
  const schema = typeof parameter.resolved === 'object' ? parameter.resolved : {};
  const example =
    parameter.example ?? schema.example ?? (Array.isArray(schema.examples) ? schema.examples[0] : undefined);
  return example === undefined ? undefined : parameterText(example);
}

/** A parameter whose every value the document lists (an enum or a const): none of them is invented. */
function enumerated(parameter: PlannedParameter): boolean {
  const schema = typeof parameter.resolved === 'object' ? parameter.resolved : {};
  return Array.isArray(schema.enum) || 'const' in schema;
}

/**
 * A request the spec says must succeed: ids of the collections the path names, required
 * parameters, a valid body. Reference slots (`origin`, `departure_id`) take values the deployment
 * showed; those it showed none for are listed in `unresolvedReferences`, and so is a path parameter
 * left to a generated value (a DELETE never takes a seen id): it names nothing the deployment
 * showed, so a 404 for it is fair. A search that answered a non-empty list during discovery is
 * asked the same way again.
 */
export function validRequest(context: CheckContext, operation: PlannedOperation, purpose: string): RequestSpec {
  const filler = new ReferenceFiller(context, operation);
  const values = generation(context, filler);
  const working = context.state.workingQueries.get(operation.id) ?? {};
  const pathParams: Record<string, string> = {};
  const query: Record<string, string> = {};
  const headers: Record<string, string> = {};
  const knownPaths = filler.pathParameters();
  for (const parameter of operation.parameters) {
    const known =
      parameter.in === 'path'
        ? knownPaths[parameter.name]
        : parameter.in === 'cookie'
          ? undefined
          : filler.parameter(parameter.in, parameter.name);
    if (parameter.in === 'path') {
      pathParams[parameter.name] = known ?? defaultParameterValue(parameter);
      if (known === undefined && !enumerated(parameter)) filler.unresolved.add(`path ${parameter.name}`);
    } else if (parameter.in === 'query' && parameter.required)
      query[parameter.name] =
        working[parameter.name] ??
        known ??
        documentedText(parameter) ??
        parameterText(validValue(parameter.resolved, values, parameter.name));
    else if (parameter.in === 'header' && parameter.required && known !== undefined) headers[parameter.name] = known;
  }
  const request: RequestSpec = { operation, intent: 'valid', purpose, pathParams, query };
  if (Object.keys(headers).length > 0) request.headers = headers;
  const finish = (spec: RequestSpec): RequestSpec => {
    for (const name of Object.keys(working)) if (name in query) filler.unresolved.delete(`query ${name}`);
    return { ...spec, unresolvedReferences: [...filler.unresolved] };
  };
  if (operation.body) return finish({ ...request, body: { value: validValue(operation.body.schema, values) } });
  const media = operation.mediaBody && mediaBody(operation.mediaBody.mediaType, operation.mediaBody.schema, values);
  return finish(media ? { ...request, body: { raw: media.raw }, contentType: media.contentType } : request);
}

/**
 * The query a list needs to answer at all: its required parameters as `validRequest` fills them
 * (the references a search takes, the query that worked in discovery). Checks that read a list
 * their own way add their parameters on top.
 */
export function requiredQuery(context: CheckContext, list: PlannedOperation): Record<string, string> {
  if (!list.parameters.some((parameter) => parameter.in === 'query' && parameter.required)) return {};
  return validRequest({ ...context, operation: list }, list, `${list.id}`).query ?? {};
}

/** What the data generators draw on in this check: references are filled from what the deployment showed. */
export function generation(
  context: CheckContext,
  filler = new ReferenceFiller(context, context.operation),
): ValueContext {
  const document = context.plan.document.dereferenced;
  return {
    random: context.random,
    tag: context.settings.namePrefix,
    observed: context.state.pool.observed,
    identities: identitiesOf(context),
    reference: filler.body,
    // Discriminator mappings name their variants through the document: a oneOf body gets its mapped value.
    document,
  };
}

/**
 * Properties that identify a resource of this operation's collection: its id property and any
 * `id`. A server may assign them whatever a client sends (the document rarely says): generated
 * bodies leave them out unless required, and probes of exact values skip them.
 */
export function identitiesOf(context: Pick<CheckContext, 'operation' | 'plan'>): string[] {
  const { operation, plan } = context;
  const collection = operation.collection ? plan.collection(operation.collection) : {};
  const names = [operation.idProperty, collection.create?.idProperty, collection.read?.idProperty, 'id'];
  return [...new Set(names.filter((name): name is string => name !== undefined))];
}

/** Why a create-with-ids check does not apply here, or undefined when it does. */
export function createsIdentifiedResources(operation: PlannedOperation, settings: RunSettings): string | undefined {
  if (operation.role !== 'create' || !operation.idProperty) return 'not an operation that creates identified resources';
  if (!operation.returnsItem) return 'the create documents no resource in its response';
  return settings.readOnly ? 'read-only run' : undefined;
}

/** Reads one resource through a read operation (`GET /pets/{petId}`), `id` in its path parameter. */
export function readById(
  context: CheckContext,
  read: PlannedOperation,
  id: unknown,
  purpose: string,
  intent: Intent = 'valid',
  parents: Record<string, string> = {},
): Promise<Exchange> {
  const pathName = idParameter(read)?.name ?? 'id';
  // A sub-resource's parents (`/projects/{projectId}/tasks/{taskId}`): those it was created under
  // when known, else ones the run knows.
  const given = Object.fromEntries(
    Object.entries(parents).filter(([name]) => read.parameters.some((p) => p.in === 'path' && p.name === name)),
  );
  const known = { ...knownPathValues({ ...context, operation: read }, read), ...given };
  return context.send({ operation: read, intent, purpose, pathParams: { ...known, [pathName]: String(id) } });
}

/**
 * Records what a successful create returned, so later checks can read it back. Only creates: a
 * replace or update of an item the run made is followed by `followWrites`, not recorded again.
 */
export function rememberCreated(context: CheckContext, sent: unknown, exchange: Exchange): void {
  const operation = context.operation;
  const returned = jsonBody(exchange);
  if (
    operation.role !== 'create' ||
    sent === null ||
    typeof sent !== 'object' ||
    Array.isArray(sent) ||
    !isSuccess(exchange) ||
    !operation.collection ||
    returned === null ||
    typeof returned !== 'object' ||
    Array.isArray(returned)
  )
    return;
  const resource = {
    sent: sent as Record<string, unknown>,
    returned: returned as Record<string, unknown>,
    id: operation.idProperty ? (returned as Record<string, unknown>)[operation.idProperty] : undefined,
    scope: new URL(exchange.request.url).pathname,
  };
  const list = context.state.created.get(operation.collection) ?? [];
  list.push(resource);
  context.state.created.set(operation.collection, list);
}
