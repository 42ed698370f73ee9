import type { CheckFailure, RequestSpec, ScenarioCheck } from '../types.js';
import { failure, statusText, validRequest } from './support.js';

/** Credentials that must not open the door, for the operation's security scheme. */
function badCredentials(
  request: RequestSpec,
  random: { word(length: number): string },
  apiKey: string,
): { label: string; auth: RequestSpec['auth'] }[] {
  const unknownKey = `kennel-not-a-key-${random.word(10)}`;
  // Near misses of the real key: keys are compared exactly, not case-insensitively or by prefix.
  const swapped = apiKey === apiKey.toUpperCase() ? apiKey.toLowerCase() : apiKey.toUpperCase();
  const nearMisses = [
    ...(swapped !== apiKey ? [{ label: 'the key in another letter case', value: swapped }] : []),
    { label: 'the key with a character appended', value: `${apiKey}x` },
  ];
  const schemes = request.operation.operation.security;
  const names = Object.keys(schemes.requirements[0] ?? {});
  const isApiKey = names.some((name) => schemes.schemes[name]?.type === 'apiKey');
  if (isApiKey) {
    return [
      { label: 'no credentials', auth: 'none' },
      { label: 'an unknown API key', auth: { apiKeyValue: unknownKey } },
      ...nearMisses.map(({ label, value }) => ({ label, auth: { apiKeyValue: value } })),
    ];
  }
  return [
    { label: 'no Authorization header', auth: 'none' },
    {
      label: 'the Basic scheme instead of Bearer',
      auth: { authorization: `Basic ${Buffer.from(`kennel:${unknownKey}`).toString('base64')}` },
    },
    { label: 'an empty Bearer token', auth: { authorization: 'Bearer' } },
    { label: 'an unknown Bearer token', auth: { authorization: `Bearer ${unknownKey}` } },
    ...nearMisses.map(({ label, value }) => ({ label, auth: { authorization: `Bearer ${value}` } })),
  ];
}

/** Requests without valid credentials get the documented 401 (with an Error body, checked separately). */
export const authEnforced: ScenarioCheck = {
  name: 'auth-enforced',
  kind: 'scenario',
  severity: 'error',
  description: 'no header, a wrong scheme or an unknown key get the documented 401',
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
      } else if (expected !== undefined ? status !== expected : status !== 401 && status !== 403) {
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
        Object.keys(base.pathParams ?? {}).map((name) => [
          name,
          String(700_000_000 + context.random.int(0, 99_999_999)),
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
      if (status !== undefined && status < 500 && status !== (expected ?? 401)) {
        failures.push(
          failure(
            this.name,
            this.severity,
            exchange,
            `answered ${status} to a request for an unknown id with no credentials`,
            { expected: String(expected ?? 401), actual: statusText(exchange) },
          ),
        );
      }
    }
    return { failures };
  },
};
