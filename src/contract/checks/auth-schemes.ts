import type { PlannedOperation } from '../prepare/plan.js';

/** How the configured key travels for an operation: in `Authorization` under an HTTP scheme, or as an API key. */
export type CredentialKind = 'bearer' | 'basic' | 'apiKey';

/** The credential the client sends for `operation` (its first security requirement, as the request builder does). */
export function credentialKind(operation: PlannedOperation): CredentialKind {
  const { requirements, schemes } = operation.operation.security;
  const types = Object.keys(requirements[0] ?? {}).map((name) => schemes[name]);
  if (types.some((scheme) => scheme?.type === 'apiKey' && scheme.name)) return 'apiKey';
  if (types.some((scheme) => scheme?.type === 'http' && scheme.scheme?.toLowerCase() === 'basic')) return 'basic';
  return 'bearer';
}

/** `Bearer` or `Basic`: the HTTP authentication scheme name of a credential kind, in its usual spelling. */
export function schemeName(kind: Exclude<CredentialKind, 'apiKey'>): string {
  return kind === 'basic' ? 'Basic' : 'Bearer';
}

/**
 * The HTTP authentication schemes (lower case) a 401 may challenge for, over every alternative
 * requirement: an http scheme names itself; OAuth 2 and OpenID Connect tokens are Bearer tokens
 * (RFC 6750). Empty when the operation takes only API keys, which have no registered scheme.
 */
export function challengeSchemes(operation: PlannedOperation): string[] {
  const { requirements, schemes } = operation.operation.security;
  const names = new Set<string>();
  for (const requirement of requirements) {
    for (const name of Object.keys(requirement)) {
      const scheme = schemes[name];
      if (scheme?.type === 'http' && scheme.scheme) names.add(scheme.scheme.toLowerCase());
      else if (scheme?.type === 'oauth2' || scheme?.type === 'openIdConnect') names.add('bearer');
    }
  }
  return [...names];
}

const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/**
 * The scheme names (lower case) of the challenges in a `WWW-Authenticate` value (RFC 9110 §11.6.1):
 * a token at the start or after a comma that is not an auth-param name (not followed by `=`).
 */
export function challengedSchemes(header: string): string[] {
  const unquoted = header.replace(/"(?:[^"\\]|\\.)*"/g, '""');
  return unquoted
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part !== '' && !/^[^\s=]+\s*=/.test(part))
    .map((part) => part.split(/\s+/)[0]!)
    .filter((name) => TOKEN.test(name))
    .map((name) => name.toLowerCase());
}

/** True when some alternative security requirement of the operation takes an API key. */
export function takesApiKey(operation: PlannedOperation): boolean {
  const { requirements, schemes } = operation.operation.security;
  return requirements.some((requirement) => Object.keys(requirement).some((name) => schemes[name]?.type === 'apiKey'));
}
