import { ProblemError } from '../../core/problem.js';
import type { Operation } from '../../openapi/operations.js';
import type { Principal } from '../../http/responder.js';

/** Reads what a security check needs from a request. */
export interface CredentialSource {
  header(name: string): string;
  query(name: string): string | undefined;
  cookie(name: string): string | undefined;
}

const REALM = 'realm="kennel"';
const BEARER = `Bearer ${REALM}`;

/** The 401 for absent credentials; `challenge` names the scheme the operation takes (RFC 9110 §11.6.1). */
function missing(message: string, challenge = BEARER): ProblemError {
  return new ProblemError(401, 'missing_api_key', message, { 'WWW-Authenticate': challenge });
}

/** The 401 for wrong credentials; a Bearer challenge says `invalid_token` (RFC 6750 §3.1). */
function invalid(message: string, challenge = `${BEARER}, error="invalid_token"`): ProblemError {
  return new ProblemError(401, 'invalid_api_key', message, { 'WWW-Authenticate': challenge });
}

/** Checks `Authorization: Bearer <key>`; returns the key or throws the 401 problem. */
export function bearerKey(authorization: string, keys: ReadonlySet<string>): string {
  const value = authorization.trim();
  if (value === '') return throwing(missing('Authorization header with a Bearer API key is required'));
  const space = value.search(/\s/);
  const scheme = space === -1 ? value : value.slice(0, space);
  if (scheme.toLowerCase() !== 'bearer') return throwing(invalid(wrongScheme(scheme, space === -1, keys)));
  const token = space === -1 ? '' : value.slice(space + 1).trim();
  if (token === '') return throwing(invalid('The Bearer token is empty: send Authorization: Bearer <API_KEY>'));
  if (!keys.has(token)) return throwing(invalid('The API key is not valid'));
  return token;
}

/**
 * Names the scheme that was sent, unless it may be a credential: a value without a space is the
 * whole credential (a key sent without "Bearer "), and nothing that looks like a key is echoed.
 */
function wrongScheme(scheme: string, alone: boolean, keys: ReadonlySet<string>): string {
  const fix = 'send Authorization: Bearer <API_KEY>';
  if (alone || keys.has(scheme) || !/^[A-Za-z][A-Za-z0-9-]{0,19}$/.test(scheme)) {
    return `Authorization must use the Bearer scheme: ${fix}`;
  }
  return `Authorization must use the Bearer scheme, not "${scheme}": ${fix}`;
}

function throwing(problem: ProblemError): never {
  throw problem;
}

/**
 * Applies the operation's security requirements (any one alternative suffices). Bearer and apiKey
 * schemes check the key against `keys`; other scheme types only need their credential present.
 */
export function authenticate(operation: Operation, request: CredentialSource, keys: ReadonlySet<string>): Principal {
  const { requirements, schemes } = operation.security;
  if (requirements.length === 0) return null;
  let firstFailure: ProblemError | undefined;
  for (const requirement of requirements) {
    try {
      let principal: Principal = null;
      for (const name of Object.keys(requirement)) principal = checkScheme(name, schemes, request, keys) ?? principal;
      return principal;
    } catch (error) {
      if (!(error instanceof ProblemError)) throw error;
      firstFailure ??= error;
    }
  }
  throw firstFailure ?? missing('Credentials are required');
}

function checkScheme(
  name: string,
  schemes: Operation['security']['schemes'],
  request: CredentialSource,
  keys: ReadonlySet<string>,
): Principal {
  const scheme = schemes[name];
  if (!scheme) return null;
  if (
    (scheme.type === 'http' && scheme.scheme?.toLowerCase() === 'bearer') ||
    scheme.type === 'oauth2' ||
    scheme.type === 'openIdConnect'
  ) {
    return bearerKey(request.header('authorization'), keys);
  }
  if (scheme.type === 'apiKey' && scheme.name) return apiKey(scheme.in, scheme.name, request, keys);
  if (scheme.type === 'http' && scheme.scheme?.toLowerCase() === 'basic') {
    return basicKey(request.header('authorization'), keys);
  }
  if (scheme.type === 'http') {
    const authorization = request.header('authorization');
    const challenge = `${scheme.scheme} ${REALM}`;
    if (!authorization.toLowerCase().startsWith(`${scheme.scheme?.toLowerCase()} `))
      throw missing(`Authorization with the ${scheme.scheme} scheme is required`, challenge);
  }
  return null;
}

/** API keys have no registered challenge scheme; the challenge still says where the key goes. */
function apiKey(where: string | undefined, name: string, request: CredentialSource, keys: ReadonlySet<string>): string {
  const value =
    where === 'query' ? request.query(name) : where === 'cookie' ? request.cookie(name) : request.header(name);
  const challenge = `ApiKey ${REALM}, in="${where ?? 'header'}", name="${name}"`;
  if (!value) throw missing(`API key required in ${where} "${name}"`, challenge);
  if (!keys.has(value)) throw invalid('The API key is not valid', challenge);
  return value;
}

const BASIC = `Basic ${REALM}, charset="UTF-8"`;

/**
 * Checks `Authorization: Basic base64(user:password)` (RFC 7617): an accepted API key as the user
 * name (as Stripe takes it) or as the password authenticates; returns that key.
 */
export function basicKey(authorization: string, keys: ReadonlySet<string>): string {
  const value = authorization.trim();
  const fix = 'send Authorization: Basic base64(<API_KEY>:) or base64(<user>:<API_KEY>)';
  if (value === '') throw missing(`Authorization with the Basic scheme is required: ${fix}`, BASIC);
  const space = value.search(/\s/);
  if (space === -1 || value.slice(0, space).toLowerCase() !== 'basic') {
    throw invalid(`Authorization must use the Basic scheme: ${fix}`, BASIC);
  }
  const decoded = Buffer.from(value.slice(space + 1).trim(), 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  const [user, password] = colon === -1 ? [decoded, ''] : [decoded.slice(0, colon), decoded.slice(colon + 1)];
  if (keys.has(user)) return user;
  if (keys.has(password)) return password;
  throw invalid('The credentials are not valid: neither the user name nor the password is an API key', BASIC);
}
