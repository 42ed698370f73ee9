import { validBodies, validParameterValues } from '../generate.js';
import { exactNumbers } from '../../core/json.js';
import { coerceParameter } from '../../openapi/parameter-value.js';
import type { PlannedParameter } from '../plan.js';
import type { CheckContext, CheckFailure, Exchange, RequestSpec, ScenarioCheck, Severity } from '../types.js';
import { unexercisedUnlessSuccess } from './unexercised.js';
import {
  failure,
  generation,
  isSuccess,
  collectionOfPathParameter,
  documentsIdSource,
  knownPathValues,
  refusalSeverity,
  rememberCreated,
  statusText,
  validRequest,
} from './support.js';

/**
 * A valid request that did not get a 2xx. A body may name something the deployment does not
 * have (a domain to make primary), and a path may name something an existing item lacks (its
 * certificate), so a documented 404 or 409 is not a rejection of valid data, except to the read of
 * an item the run knows exists; a validation status (400/422) or an undocumented one is. Refusing
 * a request the document only makes plausible (no `required`, an invented reference) is a warning.
 */
function rejected(check: string, exchange: Exchange, severity: Severity = 'error'): CheckFailure[] {
  if (isSuccess(exchange) || !exchange.response || exchange.response.status >= 500) return [];
  const status = exchange.response.status;
  const documented = exchange.operation.operation.responses.some((response) => response.status === String(status));
  const speaksOfExistence = exchange.request.body !== undefined || exchange.operation.role !== 'read';
  if (speaksOfExistence && documented && (status === 404 || status === 409)) return [];
  const plausible = exchange.acceptance === 'plausible';
  return [
    failure(
      check,
      refusalSeverity(exchange, severity),
      exchange,
      `rejected ${exchange.purpose} with ${exchange.response.status}${plausible ? ' (valid, but the document does not say it suffices)' : ''}`,
      {
        expected: `a documented 2xx (${exchange.operation.successStatuses.join(', ')})`,
        actual: statusText(exchange),
      },
    ),
  ];
}

/** The parameter's boundary values that its schema accepts once coerced from text, as a server reads them. */
function acceptedValues(context: CheckContext, parameter: PlannedParameter): string[] {
  const validate = parameter.schema && context.plan.validators.at(parameter.schema.pointer);
  return validParameterValues(parameter).filter((value) => {
    const coerced = coerceParameter(value, parameter.resolved, parameter.explode);
    return coerced.ok && (validate?.(exactNumbers(coerced.value)).length ?? 0) === 0;
  });
}

const MEDIA_TYPE_SPELLINGS = [
  'application/json; charset=utf-8',
  'Application/JSON; Charset=UTF-8',
  'application/json;charset=UTF-8',
];

/** Valid input the spec allows (each enum member, boundary values) gets a documented 2xx. */
export const positiveDataAcceptance: ScenarioCheck = {
  name: 'positive-data-acceptance',
  kind: 'scenario',
  severity: 'error',
  description: 'generated valid bodies and parameters get a documented 2xx',
  skipReason(operation, _plan, settings) {
    if (operation.successStatuses.length === 0) return 'the operation documents no successful response';
    if (settings.readOnly && !operation.safe) return 'read-only run: the operation changes state';
    return undefined;
  },
  async run(context) {
    const { operation } = context;
    const inPath = operation.parameters.filter((parameter) => parameter.in === 'path');
    const known = knownPathValues(context, operation);
    if (inPath.length > 0 && operation.operation.method === 'delete')
      return { failures: [], skipped: 'a valid DELETE would remove a resource other checks read' };
    const unknown = inPath.filter((parameter) => known[parameter.name] === undefined);
    const names = (parameters: typeof unknown) => parameters.map((parameter) => `{${parameter.name}}`).join(', ');
    // No list or create of that collection: the document gives no way to learn an id (does not apply).
    const unlearnable = unknown.filter(
      (parameter) => !documentsIdSource(context.plan, collectionOfPathParameter(context.plan, operation, parameter)),
    );
    if (unlearnable.length > 0)
      return {
        failures: [],
        skipped: `the document gives no way to learn a value for ${names(unlearnable)} (no operation lists or creates them)`,
      };
    if (unknown.length > 0)
      return {
        failures: [],
        unexercised: `no value the deployment gave is known for ${names(unknown)}: no list or create of the run returned one`,
      };
    const failures: CheckFailure[] = [];
    const sent: Exchange[] = [];
    const send = async (request: RequestSpec): Promise<Exchange> => {
      const exchange = await context.send(request);
      sent.push(exchange);
      return exchange;
    };
    const base = validRequest(context, operation, `a valid ${operation.id} request`);
    if (operation.body) {
      const validate = context.plan.validators.at(operation.body.pointer, 'request');
      let acceptedBody: { value: unknown } | undefined;
      for (const { label, value, severity } of validBodies(operation.body.schema, generation(context), validate).slice(
        0,
        context.settings.maxExamples,
      )) {
        const exchange = await send({ ...base, body: { value }, purpose: `a valid body (${label})` });
        failures.push(...rejected(this.name, exchange, severity));
        rememberCreated(context, value, exchange);
        if (isSuccess(exchange)) acceptedBody ??= { value };
      }
      // Type, subtype, parameter names and the charset value are case-insensitive, the space around ";" optional
      // (RFC 9110 §8.3.1, §8.3.2, §5.6.6): a server must not refuse any of these spellings of JSON. Each is
      // sent with the very body the deployment accepted, so a refusal is the spelling's fault (a 409 is
      // the body's: its key may be taken once only); with no body accepted there is nothing to compare with.
      for (const contentType of acceptedBody === undefined ? [] : MEDIA_TYPE_SPELLINGS) {
        const value = acceptedBody!.value;
        const exchange = await send({
          ...base,
          body: { value },
          contentType,
          purpose: `a valid body sent as ${contentType}`,
        });
        if (exchange.response?.status !== 409) failures.push(...rejected(this.name, exchange));
        rememberCreated(context, value, exchange);
      }
    }
    const queryCases = operation.parameters
      .filter((parameter) => parameter.in === 'query')
      .flatMap((parameter) => acceptedValues(context, parameter).map((value) => ({ name: parameter.name, value })))
      .slice(0, context.settings.maxExamples);
    // The plain valid request first, as a control: once it is accepted, references kennel had to
    // invent evidently do not decide, so a refused boundary value is the value's fault.
    if (!operation.body) failures.push(...rejected(this.name, await send(base)));
    for (const { name, value } of queryCases) {
      const exchange = await send({
        ...base,
        query: { ...base.query, [name]: value },
        purpose: `${operation.id} with ${name}=${value}`,
      });
      failures.push(...rejected(this.name, exchange));
    }
    return { failures, unexercised: unexercisedUnlessSuccess(sent, 'valid request') };
  },
};
