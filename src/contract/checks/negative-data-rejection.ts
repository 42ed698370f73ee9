import { invalidBodies, invalidParameterValues, roundRobin, type InvalidBody } from '../generate.js';
import { parseJson } from '../../core/json.js';
import type { PlannedParameter } from '../plan.js';
import type { CheckContext, CheckFailure, Exchange, RequestSpec, ScenarioCheck, Severity } from '../types.js';
import { objectShape } from '../../openapi/schema-shape.js';
import {
  failure,
  identitiesOf,
  isSuccess,
  jsonBody,
  readById,
  sameJson,
  show,
  statusText,
  validRequest,
} from './support.js';

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
    const base = validRequest(context, operation, 'a valid request');
    const documentsRejection = operation.validationStatuses.length > 0;
    const failures: CheckFailure[] = [];
    if (operation.body && base.body && 'value' in base.body) {
      const validate = plan.validators.at(operation.body.pointer, 'request');
      const parse = (text: string) => {
        const parsed = parseJson(text);
        return parsed.ok ? parsed.value : undefined;
      };
      const cases = invalidBodies(operation.body.schema, base.body.value as Record<string, unknown>, validate, parse, {
        bodyRequired: operation.body.required,
      }).slice(0, context.settings.maxExamples);
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
