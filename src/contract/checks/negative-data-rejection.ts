import { invalidBodies, invalidParameterValues, roundRobin, type InvalidBody } from '../prepare/generate.js';
import { validObject } from '../../openapi/generate.js';
import type { JsonSchema } from '../../openapi/openapi-types.js';
import { underItemPath } from '../../openapi/naming.js';
import { parseJson } from '../../core/json.js';
import type { PlannedOperation, PlannedParameter } from '../prepare/plan.js';
import type { CheckContext, CheckFailure, Exchange, RequestSpec, ScenarioCheck, Severity } from '../types.js';
import { objectShape } from '../../openapi/schema-shape.js';
import { idOf } from './ids.js';
import type { Resource } from '../../openapi/resource-model.js';
import { sameJson } from './same-json.js';
import { rememberCreated } from './created-writes.js';
import { failure, show } from './failure.js';
import { generation, identitiesOf } from './generation.js';
import { readById } from './read-by-id.js';
import { jsonBody } from './response-body.js';
import { isClientError, isSuccess, statusText } from './response-status.js';
import { validRequest } from './valid-request.js';

function requiredIn(context: CheckContext, name: string): boolean {
  return objectShape(context.operation.body?.schema).required.includes(name);
}

function accepted(check: string, severity: Severity, exchange: Exchange): CheckFailure[] {
  if (!isSuccess(exchange)) return [];
  return [
    failure(check, severity, exchange, `accepted ${exchange.purpose} (status ${exchange.response!.status})`, {
      expected: 'a 4xx rejection',
      actual: `${statusText(exchange)} ${show(exchange.response!.text, 200)}`,
    }),
  ];
}

/** The property of an object body, or undefined (nothing to compare). */
function propertyOf(body: unknown, name: string): { value: unknown } | undefined {
  if (body === null || typeof body !== 'object' || Array.isArray(body) || !(name in body)) return undefined;
  return { value: (body as Record<string, unknown>)[name] };
}

/** A kept value differs from the one sent; a number too large for a double (1e400 read as Infinity) cannot be told. */
function altered(kept: { value: unknown } | undefined, sent: bigint): boolean {
  if (kept === undefined || (typeof kept.value === 'number' && !Number.isFinite(kept.value))) return false;
  return !sameJson(kept.value, sent);
}

/**
 * An out-of-range integer that was accepted: an error when the echo or the stored resource holds
 * another value (wrapped, clamped, rounded), else a warning (kept exactly: the spec forbids it, but
 * nothing is lost).
 */
async function acceptedOutOfRange(
  context: CheckContext,
  check: string,
  exchange: Exchange,
  exact: NonNullable<InvalidBody['exact']>,
): Promise<CheckFailure[]> {
  if (!isSuccess(exchange)) return [];
  const { name, value } = exact;
  const echoed = propertyOf(jsonBody(exchange), name);
  const wrong = (where: string, seen: Exchange, kept: { value: unknown }) =>
    failure(check, 'error', seen, `accepted ${exchange.purpose} and ${where} ${show(kept.value)} instead`, {
      expected: `a 4xx, or /${name} kept exactly as ${value}`,
      actual: `${statusText(seen)} ${show(seen.response?.text ?? '', 200)}`,
    });
  // An identity a server assigns may ignore what was sent: accepting the body is all there is to say.
  if (identitiesOf(context).includes(name) && !requiredIn(context, name)) return accepted(check, 'warning', exchange);
  if (altered(echoed, value)) return [wrong('echoed', exchange, echoed!)];
  const { operation } = context;
  const read = operation.collection ? context.plan.collection(operation.collection).read : undefined;
  const id = operation.idProperty ? propertyOf(jsonBody(exchange), operation.idProperty)?.value : undefined;
  if (operation.role === 'create' && read && id !== undefined) {
    const readBack = await readById(context, read, id, `reading back ${String(id)}, created with ${name}=${value}`);
    const stored = isSuccess(readBack) ? propertyOf(jsonBody(readBack), name) : undefined;
    if (altered(stored, value)) return [wrong('stored', readBack, stored!)];
  }
  return accepted(check, 'warning', exchange);
}

/** Required query, header and cookie parameters, each left out: the request must be refused. */
async function missingParameters(context: CheckContext, base: RequestSpec, check: string): Promise<CheckFailure[]> {
  const { operation } = context;
  const documentsRejection = operation.validationStatuses.length > 0;
  const failures: CheckFailure[] = [];
  for (const parameter of operation.parameters) {
    if (!parameter.required || !isOmissible(parameter)) continue;
    const query = { ...base.query };
    if (parameter.in === 'query') delete query[parameter.name];
    const exchange = await context.send({
      ...base,
      query,
      omit: [{ in: parameter.in, name: parameter.name }],
      intent: 'invalid',
      strictStatus: documentsRejection,
      purpose: `a request without the required ${parameter.in} parameter ${parameter.name}`,
    });
    // Where the document lists no validation status, it says less about how the omission is refused.
    failures.push(...accepted(check, documentsRejection ? 'error' : 'warning', exchange));
  }
  return failures;
}

/** A parameter a request can leave out: not in the path, not a header OpenAPI says to ignore. */
function isOmissible(
  parameter: PlannedParameter,
): parameter is PlannedParameter & { in: 'query' | 'header' | 'cookie' } {
  if (parameter.in === 'header') return !IGNORED_HEADERS.has(parameter.name.toLowerCase());
  return parameter.in === 'query' || parameter.in === 'cookie';
}

const IGNORED_HEADERS = new Set(['accept', 'content-type', 'authorization']);

/** Each query, path and header parameter set to values its schema refuses. */
async function invalidParameters(context: CheckContext, base: RequestSpec, check: string): Promise<CheckFailure[]> {
  const { operation, plan } = context;
  const documentsRejection = operation.validationStatuses.length > 0;
  const groups = operation.parameters
    .filter((parameter) => parameter.in === 'query' || parameter.in === 'path' || isHeaderToCheck(parameter))
    .map((parameter) =>
      invalidParameterValues(parameter, parameter.schema && plan.validators.at(parameter.schema.pointer)).map(
        (item) => ({ parameter, ...item }),
      ),
    );
  // Every parameter's first case before the second of any, so that --max-examples reaches them all.
  const cases = roundRobin(groups).slice(0, context.settings.maxExamples);
  const failures: CheckFailure[] = [];
  for (const { parameter, label, value, severity } of cases) {
    const inPath = parameter.in === 'path';
    const exchange = await context.send({
      ...base,
      ...withParameter(base, parameter, value),
      intent: 'invalid',
      // A bad path parameter may fairly be "not found" (404) or "bad request" (400): never strict.
      strictStatus: !inPath && documentsRejection,
      purpose: `${parameter.in} parameter ${parameter.name}=${value} (${label})`,
    });
    // A query or header value of an operation that documents no validation status may be clamped or ignored.
    const mayClampOrIgnore = !inPath && !documentsRejection;
    if (!mayClampOrIgnore) failures.push(...accepted(check, severity, exchange));
  }
  return failures;
}

function isHeaderToCheck(parameter: PlannedParameter): boolean {
  return parameter.in === 'header' && !IGNORED_HEADERS.has(parameter.name.toLowerCase());
}

function withParameter(base: RequestSpec, parameter: PlannedParameter, value: string): Partial<RequestSpec> {
  if (parameter.in === 'path') return { pathParams: { ...base.pathParams, [parameter.name]: value } };
  if (parameter.in === 'header') return { headers: { ...base.headers, [parameter.name.toLowerCase()]: value } };
  return { query: { ...base.query, [parameter.name]: value } };
}

/**
 * A valid body for each `oneOf`/`anyOf` branch of the body schema other than the one `body`
 * follows (a card payment besides a bank one), so that every branch's fields are probed.
 */
function otherBranches(context: CheckContext, body: unknown, validate: (value: unknown) => unknown[]): unknown[] {
  const schema = context.operation.body?.schema;
  if (typeof schema !== 'object') return [];
  const branches = (
    Array.isArray(schema.oneOf) ? schema.oneOf : Array.isArray(schema.anyOf) ? schema.anyOf : []
  ) as JsonSchema[];
  const values = generation(context);
  return branches
    .map((branch) => validObject(branch, values, 'all'))
    .filter((value) => validate(value).length === 0 && !sameJson(value, body))
    .filter((value, index, all) => {
      const kind = (candidate: unknown) => JSON.stringify(Object.keys(candidate as object).sort());
      return kind(value) !== kind(body) && all.findIndex((other) => kind(other) === kind(value)) === index;
    });
}

/**
 * The plainest form of a valid body: optional properties it sets at their documented `default`
 * (one seat, not eight), so that what a twin or a fresh item holds leaves room for the cases.
 */
function plainest(schema: JsonSchema | undefined, body: unknown): unknown {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return body;
  const { properties } = objectShape(schema);
  const out = { ...(body as Record<string, unknown>) };
  for (const [name, property] of Object.entries(properties))
    if (name in out && typeof property === 'object' && property.default !== undefined) out[name] = property.default;
  return out;
}

/** `request` with its body at its plainest, when that is still valid. */
function plainRequest(context: CheckContext, request: RequestSpec): RequestSpec {
  const body = context.operation.body;
  if (!body || !request.body || !('value' in request.body)) return request;
  const value = plainest(body.schema, request.body.value);
  const valid = context.plan.validators.at(body.pointer, 'request')(value).length === 0;
  return valid ? { ...request, body: { value } } : request;
}

/** How many valid bodies a create tries before mutating one the deployment refused anyway. */
const TWIN_TRIES = 4;

/**
 * A valid request to mutate: an invalid body proves nothing when its valid twin is refused too
 * (a seat held for a sold-out performance answers 409 whatever the email). A create sends the
 * twin first and, while the deployment refuses it, tries a newly generated one (other references
 * from the pool), deleting it again where it can; a create under an item or an action on one
 * (`POST /orders/{id}/payment`) targets an item created for it, so that an earlier check's
 * payment does not answer every case with 409.
 */
async function acceptedTwin(context: CheckContext, base: RequestSpec): Promise<RequestSpec> {
  const { operation } = context;
  if (context.settings.readOnly || !operation.body) return base;
  // A create under an item (a reservation's payment) and an action on one act on a fresh item.
  const onItem =
    operation.role === 'other' ||
    (operation.role === 'create' && (operation.resource?.parentParameters.length ?? 0) > 0);
  if (onItem) {
    const target = await freshTarget(context);
    return target ? { ...base, pathParams: { ...base.pathParams, ...target } } : base;
  }
  if (operation.role !== 'create') return base;
  const twin = await firstAccepted(context, operation, base, 'the valid twin of the invalid bodies');
  if (!twin) return base;
  await removeTwin(context, twin.request, twin.exchange);
  return twin.request;
}

/**
 * Sends valid requests for a top-level create until the deployment accepts one: `first`, then
 * bodies it accepted earlier in the run (their references worked), then a newly generated one;
 * each at its plainest. Undefined when none is accepted, or a refusal is not a 4xx.
 */
async function firstAccepted(
  context: CheckContext,
  create: PlannedOperation,
  first: RequestSpec,
  purpose: string,
): Promise<{ request: RequestSpec; exchange: Exchange } | undefined> {
  const createContext = { ...context, operation: create };
  const earlier = [...(context.state.created.get(create.collection ?? '') ?? [])]
    .reverse()
    .slice(0, TWIN_TRIES - 2)
    .map((resource): RequestSpec => ({ ...first, body: { value: resource.sent } }));
  const drafts = [first, ...earlier];
  for (let attempt = 0; attempt < TWIN_TRIES; attempt += 1) {
    const draft = drafts[attempt] ?? validRequest(createContext, create, 'a valid request');
    const request = plainRequest(createContext, draft);
    const exchange = await context.send({ ...request, purpose });
    if (isSuccess(exchange)) return { request, exchange };
    if (!isClientError(exchange)) return undefined;
  }
  return undefined;
}

/**
 * Deletes the twin again where the collection can: what it held (seats, stock, a unique name)
 * would otherwise refuse the invalid bodies for the wrong reason.
 */
async function removeTwin(context: CheckContext, twin: RequestSpec, exchange: Exchange): Promise<void> {
  const { operation, plan } = context;
  const resource = plan.model.resources.find((candidate) => candidate.path === operation.collection);
  const remove = operation.collection ? plan.collection(operation.collection).delete : undefined;
  const id = operation.idProperty ? idOf(jsonBody(exchange), operation.idProperty) : undefined;
  if (!remove || !resource?.itemParameter || id === undefined || id === null) return;
  await context.send({
    operation: remove,
    intent: 'valid',
    purpose: 'deleting the valid twin of the invalid bodies',
    pathParams: { ...twin.pathParams, [resource.itemParameter]: String(id) },
  });
}

/** The collection whose item an unsafe operation's path names (`/orders/{id}` of `/orders/{id}/payment`). */
function ownerOf(context: CheckContext): Resource | undefined {
  const { operation, plan } = context;
  if (operation.safe) return undefined;
  const path = operation.operation.path;
  return plan.model.resources
    .filter((resource) => resource.itemPath !== undefined && underItemPath(resource.itemPath, path) !== undefined)
    .sort((a, b) => b.itemPath!.length - a.itemPath!.length)[0];
}

/** A path parameter naming an item created for this check, or undefined when none can be made. */
async function freshTarget(context: CheckContext): Promise<Record<string, string> | undefined> {
  const owner = ownerOf(context);
  const create = owner && context.plan.collection(owner.path).create;
  if (!owner?.itemParameter || !create?.body || !create.idProperty || owner.parentParameters.length > 0)
    return undefined;
  const createContext = { ...context, operation: create };
  const made = await firstAccepted(
    context,
    create,
    validRequest(createContext, create, 'an item to act on'),
    `creating an item for the invalid requests of ${context.operation.id}`,
  );
  const id = made && idOf(jsonBody(made.exchange), create.idProperty);
  if (!made || id === undefined || id === null || !made.request.body || !('value' in made.request.body))
    return undefined;
  rememberCreated(createContext, made.request.body.value, made.exchange);
  return { [owner.itemParameter]: String(id) };
}

/**
 * Invalid bodies and parameters are rejected with a 4xx, never accepted. A query parameter of an
 * operation that documents no 4xx may also be clamped or ignored (a 2xx): the spec leaves that open.
 */
export const negativeDataRejection: ScenarioCheck = {
  name: 'negative-data-rejection',
  kind: 'scenario',
  severity: 'error',
  description: 'generated invalid bodies and parameters (near misses included) get a 4xx, never a 2xx',
  skipReason(operation, _plan, settings) {
    if (operation.successStatuses.length === 0) return 'the operation documents no successful response';
    if (settings.readOnly && !operation.safe) return 'read-only run: the operation changes state';
    const hasInput =
      operation.body !== undefined ||
      operation.parameters.some((parameter) => parameter.in !== 'header' || isHeaderToCheck(parameter));
    return hasInput ? undefined : 'the operation takes no input';
  },
  async run(context) {
    const { operation, plan } = context;
    const base = await acceptedTwin(context, validRequest(context, operation, 'a valid request'));
    const documentsRejection = operation.validationStatuses.length > 0;
    const failures: CheckFailure[] = [];
    if (operation.body && base.body && 'value' in base.body) {
      const validate = plan.validators.at(operation.body.pointer, 'request');
      const parse = (text: string) => {
        const parsed = parseJson(text);
        return parsed.ok ? parsed.value : undefined;
      };
      const bodies = [base.body.value, ...otherBranches(context, base.body.value, validate)];
      const groups = bodies.map((body, index) => {
        const all = invalidBodies(operation.body!.schema, body as Record<string, unknown>, validate, parse, {
          bodyRequired: operation.body!.required,
        });
        // Another branch adds its own fields' cases; transport mistakes and roots are the first body's.
        return index === 0 ? all : all.filter((item) => item.schemaViolation && item.label.startsWith('/'));
      });
      const seen = new Set<string>();
      const cases = roundRobin(groups)
        .filter((item) => !seen.has(item.label) && seen.add(item.label))
        .slice(0, context.settings.maxExamples);
      for (const item of cases) {
        const exchange = await context.send({
          ...base,
          intent: 'invalid',
          strictStatus: item.schemaViolation && documentsRejection,
          body: item.body,
          contentType: item.contentType,
          purpose: item.schemaViolation ? `a body where ${item.label}` : item.label,
        });
        failures.push(
          ...(item.exact
            ? await acceptedOutOfRange(context, this.name, exchange, item.exact)
            : accepted(this.name, item.severity, exchange)),
        );
      }
    }
    failures.push(...(await missingParameters(context, base, this.name)));
    failures.push(...(await invalidParameters(context, base, this.name)));
    return { failures };
  },
};
