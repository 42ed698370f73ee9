import type { CheckFailure, Exchange, ScenarioCheck } from '../types.js';
import { credentialKind, schemeName } from './auth-schemes.js';
import { failure } from './failure.js';
import { statusText } from './response-status.js';
import { validRequest } from './valid-request.js';

function refused(exchange: Exchange): boolean {
  return exchange.response?.status === 401 || exchange.response?.status === 403;
}

/** The scheme name spelt as RFC 9110 §11.1 allows: any letter case, one or more spaces before the credentials. */
function spellings(scheme: string): { label: string; prefix: string }[] {
  return [
    { label: `the scheme in lower case (${scheme.toLowerCase()})`, prefix: `${scheme.toLowerCase()} ` },
    { label: `the scheme in upper case (${scheme.toUpperCase()})`, prefix: `${scheme.toUpperCase()} ` },
    { label: `two spaces after ${scheme}`, prefix: `${scheme}  ` },
  ];
}

/**
 * The valid key is accepted however the scheme name is spelt: the scheme is case-insensitive and
 * may be followed by several spaces (RFC 9110 §11.1 and §11.4). API keys carry no scheme name.
 */
export const authSchemeCaseInsensitive: ScenarioCheck = {
  name: 'auth-scheme-case-insensitive',
  kind: 'scenario',
  severity: 'error',
  description: 'the valid key is accepted with the scheme name in any letter case and after several spaces',
  skipReason(operation, _plan, settings) {
    if (!operation.requiresAuth) return 'the operation requires no credentials';
    if (credentialKind(operation) === 'apiKey') return 'API key credentials carry no scheme name';
    if (operation.successStatuses.length === 0) return 'the operation documents no successful response';
    if (settings.readOnly && !operation.safe) return 'read-only run: the operation changes state';
    return undefined;
  },
  async run(context) {
    const kind = credentialKind(context.operation);
    if (kind === 'apiKey') return { failures: [] };
    const scheme = schemeName(kind);
    const key = context.settings.apiKey;
    // As the request builder sends Basic credentials: user `kennel`, the key as password.
    const credentials = kind === 'basic' ? Buffer.from(`kennel:${key}`).toString('base64') : key;
    const base = validRequest(context, context.operation, 'a valid request');
    const refusals: { label: string; exchange: Exchange }[] = [];
    for (const { label, prefix } of spellings(scheme)) {
      const exchange = await context.send({
        ...base,
        auth: { authorization: `${prefix}${credentials}` },
        purpose: `${context.operation.id} with the valid key and ${label}`,
      });
      if (refused(exchange)) refusals.push({ label, exchange });
    }
    if (refusals.length === 0) return { failures: [] };
    // Only a key that opens the door in the usual spelling shows the spelling is what was refused.
    const usual = await context.send({ ...base, purpose: `${context.operation.id} with the valid key` });
    if (refused(usual))
      return {
        failures: [],
        unexercised: `the configured key is refused in the usual spelling too (${statusText(usual)})`,
      };
    const failures: CheckFailure[] = refusals.map(({ label, exchange }) =>
      failure(this.name, this.severity, exchange, `refused the valid key sent with ${label}`, {
        expected: `the answer to "${scheme} <key>" (${statusText(usual)})`,
        actual: statusText(exchange),
      }),
    );
    return { failures };
  },
};
