import { validBodies, validParameterValues } from '../prepare/generate.js';
import { validValue } from '../../openapi/generate.js';
import { jsonBodyType } from '../prepare/request-builder.js';
import { exactNumbers } from '../../core/json.js';
import { coerceParameter } from '../../openapi/parameter-value.js';
import type { PlannedOperation, PlannedParameter } from '../prepare/plan.js';
import { parameterText } from '../prepare/parameter-text.js';
import type { CheckContext, CheckFailure, Exchange, RequestSpec, ScenarioCheck, Severity } from '../types.js';
import { unexercisedUnlessSuccess } from './unexercised.js';
import { rememberCreated } from './created-writes.js';
import { failure } from './failure.js';
import { generation } from './generation.js';
import { collectionOfPathParameter, documentsIdSource, knownPathValues } from './path-values.js';
import { isSuccess, refusalSeverity, statusText } from './response-status.js';
import { validRequest } from './valid-request.js';

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
  // 415 speaks of the media type, not of what the body holds: sent as the document's own type, no
  // body makes it fair, however little the document says the body needs.
  const ownType =
    status === 415 && exchange.request.headers['content-type'] === jsonBodyType(exchange.operation.operation);
  const plausible = exchange.acceptance === 'plausible' && !ownType;
  return [
    failure(
      check,
      ownType ? severity : refusalSeverity(exchange, severity),
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

/**
 * Other spellings of the body's JSON media type (`Application/JSON; Charset=UTF-8`). Only plain
 * JSON gets a charset parameter, which clients customarily add; a structured-syntax type (`+json`)
 * names its own parameters, and may refuse any other (JSON:API answers 415 to all but `ext` and
 * `profile`), so its spellings vary the letter case alone.
 */
function mediaTypeSpellings(essence: string): string[] {
  const capitalised = essence.replace(
    /(^|[/+.-])([a-z])/g,
    (_, before: string, letter: string) => `${before}${letter.toUpperCase()}`,
  );
  const upper = capitalised.replace(/json$/i, 'JSON');
  if (essence.toLowerCase() !== 'application/json') return [upper];
  return [`${essence}; charset=utf-8`, `${upper}; Charset=UTF-8`, `${essence};charset=UTF-8`];
}

/**
 * The key of a PUT that documents 201: the item's own path parameter (the path's last), which the
 * client chooses (`PUT /boards/{id}/labels/{key}`). Any value its schema allows is valid input.
 */
function clientChosenKey(operation: PlannedOperation): PlannedParameter | undefined {
  if (operation.operation.method !== 'put' || !operation.successStatuses.includes(201)) return undefined;
  const last = /\{([^}]+)\}$/.exec(operation.operation.path)?.[1];
  return operation.parameters.find((parameter) => parameter.in === 'path' && parameter.name === last);
}

/** A key the run makes up for this request alone: nothing the deployment can hold yet. */
function freshKey(context: CheckContext, parameter: PlannedParameter): string {
  return parameterText(validValue(parameter.resolved, generation(context), parameter.name));
}

/**
 * A PUT that made an item at a key nothing had says so with 201 (RFC 9110 §9.3.4), where the
 * document tells 201 (created) from 200 or 204 (replaced).
 */
function createdAtFreshKey(check: string, exchange: Exchange, key: string): CheckFailure[] {
  const status = exchange.response?.status;
  if (!isSuccess(exchange) || status === 201) return [];
  return [
    failure(check, 'error', exchange, `a PUT at a new ${key} answered ${status}, not 201 (created)`, {
      expected: '201: nothing had this key before',
      actual: statusText(exchange),
    }),
  ];
}

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
    const chosen = clientChosenKey(operation);
    const unknown = inPath.filter((parameter) => known[parameter.name] === undefined && parameter !== chosen);
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
    if (chosen) base.pathParams = { ...base.pathParams, [chosen.name]: freshKey(context, chosen) };
    if (operation.body) {
      const validate = context.plan.validators.at(operation.body.pointer, 'request');
      let acceptedBody: { value: unknown } | undefined;
      for (const { label, value, severity } of validBodies(operation.body.schema, generation(context), validate).slice(
        0,
        context.settings.maxExamples,
      )) {
        const exchange = await send({ ...base, body: { value }, purpose: `a valid body (${label})` });
        failures.push(...rejected(this.name, exchange, severity));
        if (chosen && sent.length === 1) failures.push(...createdAtFreshKey(this.name, exchange, chosen.name));
        rememberCreated(context, value, exchange);
        if (isSuccess(exchange)) acceptedBody ??= { value };
      }
      // Type, subtype, parameter names and the charset value are case-insensitive, the space around ";" optional
      // (RFC 9110 §8.3.1, §8.3.2, §5.6.6): a server must not refuse any of these spellings of JSON. Each is
      // sent with the very body the deployment accepted, so a refusal is the spelling's fault (a 409 is
      // the body's: its key may be taken once only); with no body accepted there is nothing to compare with.
      const spellings = mediaTypeSpellings(jsonBodyType(operation.operation));
      for (const contentType of acceptedBody === undefined ? [] : spellings) {
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
    // A cursor is the deployment's own word for a place in its list: one kennel makes up is not
    // valid data, and refusing it is right (pagination-followed sends the cursors the pages give).
    const cursor = operation.list?.pagination.parameter;
    const queryCases = operation.parameters
      .filter((parameter) => parameter.in === 'query')
      .filter((parameter) => cursor?.kind !== 'cursor' || parameter.name !== cursor.name)
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
