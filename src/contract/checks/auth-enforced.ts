import type { CheckFailure, RequestSpec, ScenarioCheck } from '../types.js';
import { challengeSchemes, credentialKind, schemeName } from './auth-schemes.js';
import { unlikelyId } from './ids.js';
import { failure } from './failure.js';
import { statusText } from './response-status.js';
import { validRequest } from './valid-request.js';

interface BadCredential {
  label: string;
  auth: RequestSpec['auth'];
}

/** Near misses of the real key: keys are compared exactly, not ignoring case, by prefix or by extension. */
function nearMisses(apiKey: string): BadCredential[] {
  const swapped = apiKey === apiKey.toUpperCase() ? apiKey.toLowerCase() : apiKey.toUpperCase();
  const misses = [
    ...(swapped !== apiKey ? [{ label: 'the key in another letter case', value: swapped }] : []),
    { label: 'the key with a character appended', value: `${apiKey}x` },
    ...(apiKey.length > 1 ? [{ label: 'the key without its last character', value: apiKey.slice(0, -1) }] : []),
  ];
  return misses.map(({ label, value }) => ({ label, auth: { apiKeyValue: value } }));
}

/** Credentials that must not open the door, for the operation's security scheme. */
function badCredentials(
  request: RequestSpec,
  random: { word(length: number): string },
  apiKey: string,
): BadCredential[] {
  const unknownKey = `kennel-not-a-key-${random.word(10)}`;
  const kind = credentialKind(request.operation);
  if (kind === 'apiKey') {
    return [
      { label: 'no credentials', auth: 'none' },
      { label: 'an unknown API key', auth: { apiKeyValue: unknownKey } },
      ...nearMisses(apiKey),
    ];
  }
  const scheme = schemeName(kind);
  // Another scheme is a bad credential only if no alternative of the operation takes that scheme.
  const accepted = challengeSchemes(request.operation);
  const other = ['Basic', 'Bearer', 'Digest'].find((name) => !accepted.includes(name.toLowerCase()))!;
  return [
    { label: 'no Authorization header', auth: 'none' },
    {
      label: `the ${other} scheme instead of ${scheme}`,
      auth: { authorization: `${other} ${Buffer.from(`kennel:${unknownKey}`).toString('base64')}` },
    },
    // A server that reads the token after the first space and ignores the scheme accepts this.
    { label: `the key under the ${other} scheme`, auth: { authorization: `${other} ${apiKey}` } },
    { label: `an empty ${scheme} token`, auth: { authorization: scheme } },
    { label: `an unknown ${scheme} token`, auth: { apiKeyValue: unknownKey } },
    ...nearMisses(apiKey),
  ];
}

/** Requests without valid credentials get the documented 401 (with an Error body, checked separately). */
export const authEnforced: ScenarioCheck = {
  name: 'auth-enforced',
  kind: 'scenario',
  severity: 'error',
  description: 'no credentials, a wrong scheme, an unknown key or a near miss of the key get the documented 401',
  skipReason(operation, _plan, settings) {
    if (!operation.requiresAuth) return 'the operation requires no credentials';
    if (settings.readOnly && !operation.safe) return 'read-only run: the operation changes state';
    return undefined;
  },
  async run(context) {
    const base = validRequest(context, context.operation, 'a valid request');
    const expected = context.operation.operation.responses.some((response) => response.status === '401')
      ? 401
      : undefined;
    // Without a documented 401, either refusal (401 or 403) is the deployment's fair choice.
    const refusal = (status: number): boolean =>
      expected !== undefined ? status === expected : status === 401 || status === 403;
    const failures: CheckFailure[] = [];
    for (const { label, auth } of badCredentials(base, context.random, context.settings.apiKey)) {
      const exchange = await context.send({
        ...base,
        auth,
        intent: 'unauthenticated',
        purpose: `${context.operation.id} with ${label}`,
      });
      const status = exchange.response?.status;
      if (status === undefined || status >= 500) continue;
      if (status < 400) {
        failures.push(
          failure(this.name, this.severity, exchange, `accepted a request with ${label} (status ${status})`, {
            expected: String(expected ?? '401 or 403'),
            actual: statusText(exchange),
          }),
        );
      } else if (!refusal(status)) {
        failures.push(
          failure(this.name, this.severity, exchange, `answered ${status} to a request with ${label}`, {
            expected: String(expected ?? '401 or 403'),
            actual: statusText(exchange),
          }),
        );
      }
    }
    if (context.operation.parameters.some((parameter) => parameter.in === 'path')) {
      // Existence must not be checked before credentials: an unknown id without a key is still a 401.
      const pathParams = Object.fromEntries(
        context.operation.parameters
          .filter((parameter) => parameter.in === 'path')
          .map((parameter) => [
            parameter.name,
            unlikelyId(parameter.resolved, context.random, 700_000_000) ?? base.pathParams?.[parameter.name] ?? '',
          ]),
      );
      const exchange = await context.send({
        ...base,
        pathParams,
        auth: 'none',
        intent: 'unauthenticated',
        purpose: `${context.operation.id} for an unknown id with no Authorization header`,
      });
      const status = exchange.response?.status;
      if (status !== undefined && status < 500 && !refusal(status)) {
        failures.push(
          failure(
            this.name,
            this.severity,
            exchange,
            `answered ${status} to a request for an unknown id with no credentials`,
            { expected: String(expected ?? '401 or 403'), actual: statusText(exchange) },
          ),
        );
      }
    }
    return { failures };
  },
};
