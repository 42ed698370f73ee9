import { invalidBodies, invalidParameterValues, type InvalidBody } from '../generate.js';
import { parseJson } from '../../core/json.js';
import type { CheckContext, CheckFailure, Exchange, ScenarioCheck, Severity } from '../types.js';
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
      operation.parameters.some((parameter) => parameter.in === 'query' || parameter.in === 'path');
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
    const parameterCases = operation.parameters
      .filter((parameter) => parameter.in === 'query' || parameter.in === 'path')
      .flatMap((parameter) =>
        invalidParameterValues(parameter, parameter.schema && plan.validators.at(parameter.schema.pointer)).map(
          (item) => ({ parameter, ...item }),
        ),
      )
      .slice(0, context.settings.maxExamples);
    for (const { parameter, label, value } of parameterCases) {
      const inPath = parameter.in === 'path';
      const where = inPath
        ? { pathParams: { ...base.pathParams, [parameter.name]: value } }
        : { query: { ...base.query, [parameter.name]: value } };
      // A bad path parameter may fairly be "not found" (404) or "bad request" (400): never strict.
      const exchange = await context.send({
        ...base,
        ...where,
        intent: 'invalid',
        strictStatus: !inPath && documentsRejection,
        purpose: `${parameter.in} parameter ${parameter.name}=${value} (${label})`,
      });
      const mayClampOrIgnore = !inPath && !documentsRejection;
      if (!mayClampOrIgnore) failures.push(...accepted(this.name, this.severity, exchange));
    }
    return { failures };
  },
};
