import { parseJson } from '../../core/json.js';
import { invalidBodies, invalidParameterValues } from '../prepare/generate.js';
import type { CheckContext, CheckFailure, RequestSpec, ScenarioCheck, Severity } from '../types.js';
import { failure } from './failure.js';
import { statusText } from './response-status.js';
import { validRequest } from './valid-request.js';

/** An invalid request to send without valid credentials, and how sure the spec is that it must get a 401. */
interface Probe {
  label: string;
  change: Partial<RequestSpec>;
  severity: Severity;
}

function parse(text: string): unknown {
  const parsed = parseJson(text);
  return parsed.ok ? parsed.value : undefined;
}

function bodyProbes(context: CheckContext, base: RequestSpec): Probe[] {
  const body = context.operation.body;
  if (!body || !base.body || !('value' in base.body)) return [];
  const cases = invalidBodies(
    body.schema,
    base.body.value as Record<string, unknown>,
    context.plan.validators.at(body.pointer, 'request'),
    parse,
    { bodyRequired: body.required },
  );
  const schemaCase = cases.find((item) => item.schemaViolation && item.severity === 'error');
  const malformed = cases.find((item) => !item.schemaViolation && item.contentType === undefined);
  return [
    ...(schemaCase
      ? [{ label: `a body where ${schemaCase.label}`, change: { body: schemaCase.body }, severity: 'error' as const }]
      : []),
    // Many stacks parse JSON before authenticating; no RFC orders the two, so this is only a warning.
    ...(malformed
      ? [{ label: `a body with ${malformed.label}`, change: { body: malformed.body }, severity: 'warning' as const }]
      : []),
  ];
}

function parameterProbes(context: CheckContext, base: RequestSpec): Probe[] {
  const probes: Probe[] = [];
  for (const where of ['query', 'path'] as const) {
    for (const parameter of context.operation.parameters.filter((candidate) => candidate.in === where)) {
      const validate = parameter.schema && context.plan.validators.at(parameter.schema.pointer);
      const bad = invalidParameterValues(parameter, validate)[0];
      if (!bad) continue;
      probes.push({
        label: `${where} parameter ${parameter.name}=${bad.value} (${bad.label})`,
        change:
          where === 'query'
            ? { query: { ...base.query, [parameter.name]: bad.value } }
            : { pathParams: { ...base.pathParams, [parameter.name]: bad.value } },
        // A router may refuse a malformed path segment before any handler runs (404): only a warning.
        severity: where === 'query' ? 'error' : 'warning',
      });
      break;
    }
  }
  return probes;
}

/**
 * Credentials are checked before the request is validated: an invalid body or parameter sent
 * without a valid key gets the documented 401, not a 400 that tells an anonymous client about
 * the input (and shows the operation did work for it).
 */
export const authBeforeValidation: ScenarioCheck = {
  name: 'auth-before-validation',
  kind: 'scenario',
  severity: 'error',
  description: 'an invalid body or parameter sent without a valid key gets the documented 401, not a 400',
  skipReason(operation, _plan, settings) {
    if (!operation.requiresAuth) return 'the operation requires no credentials';
    if (settings.readOnly && !operation.safe) return 'read-only run: the operation changes state';
    const hasInput =
      operation.body !== undefined || operation.parameters.some((p) => p.in === 'query' || p.in === 'path');
    return hasInput ? undefined : 'the operation takes no input';
  },
  async run(context) {
    const base = validRequest(context, context.operation, 'a valid request');
    const documented = context.operation.operation.responses.some((response) => response.status === '401');
    const unknownKey = `kennel-not-a-key-${context.random.word(10)}`;
    const probes = [...bodyProbes(context, base), ...parameterProbes(context, base)];
    const failures: CheckFailure[] = [];
    for (const [index, probe] of probes.entries()) {
      // The first probe also goes with an unknown key: a wrong key is no key at all.
      const credentials = index === 0 ? (['none', { apiKeyValue: unknownKey }] as const) : (['none'] as const);
      for (const auth of credentials) {
        const who = auth === 'none' ? 'no credentials' : 'an unknown key';
        const exchange = await context.send({
          ...base,
          ...probe.change,
          auth,
          intent: 'unauthenticated',
          purpose: `${context.operation.id} with ${probe.label} and ${who}`,
        });
        const status = exchange.response?.status;
        if (status === undefined || status >= 500 || status === 401 || (!documented && status === 403)) continue;
        failures.push(
          failure(
            this.name,
            status < 400 ? 'error' : probe.severity,
            exchange,
            `answered ${status} to ${probe.label} sent with ${who}`,
            {
              expected: documented ? '401 (credentials first)' : '401 or 403 (credentials first)',
              actual: statusText(exchange),
            },
          ),
        );
      }
    }
    return { failures };
  },
};
