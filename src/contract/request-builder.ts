import { stringifyJson } from '../core/json.js';
import type { PlannedOperation } from './plan.js';
import type { RequestSpec, SentRequest } from './types.js';

export interface Credentials {
  apiKey: string;
  /** Extra headers sent with every request (`--header`). */
  headers: Record<string, string>;
}

function authHeaders(
  operation: PlannedOperation,
  auth: RequestSpec['auth'],
  credentials: Credentials,
  query: Record<string, string>,
): Record<string, string> {
  const headers: Record<string, string> = {};
  if (auth === 'none') return headers;
  if (typeof auth === 'object' && 'authorization' in auth) {
    headers.authorization = auth.authorization;
    return headers;
  }
  const key = typeof auth === 'object' ? auth.apiKeyValue : credentials.apiKey;
  const { requirements, schemes } = operation.operation.security;
  const names = Object.keys(requirements[0] ?? {});
  for (const name of names) {
    const scheme = schemes[name];
    if (!scheme) continue;
    if (scheme.type === 'apiKey' && scheme.name) {
      if (scheme.in === 'query') query[scheme.name] = key;
      else if (scheme.in === 'cookie') headers.cookie = `${scheme.name}=${key}`;
      else headers[scheme.name.toLowerCase()] = key;
    } else if (scheme.type === 'http' && scheme.scheme?.toLowerCase() === 'basic') {
      headers.authorization = `Basic ${Buffer.from(`kennel:${key}`).toString('base64')}`;
    } else {
      headers.authorization = `Bearer ${key}`;
    }
  }
  return headers;
}

function expandPath(template: string, values: Record<string, string> = {}): string {
  return template.replace(/\{([^}]+)\}/g, (_whole, name: string) => encodeURIComponent(values[name] ?? '1'));
}

/** Turns what a check asks for into the exact HTTP request (URL, headers, body text). */
export function buildRequest(baseUrl: string, spec: RequestSpec, credentials: Credentials): SentRequest {
  const query: Record<string, string> = { ...spec.query };
  const headers: Record<string, string> = { accept: 'application/json', ...lowerCase(credentials.headers) };
  Object.assign(headers, authHeaders(spec.operation, spec.auth ?? 'valid', credentials, query));
  let body: string | undefined;
  if (spec.body) body = 'raw' in spec.body ? spec.body.raw : stringifyJson(spec.body.value);
  const contentType = spec.contentType === undefined ? (spec.body ? 'application/json' : null) : spec.contentType;
  if (contentType !== null) headers['content-type'] = contentType;
  const search = new URLSearchParams(query).toString();
  const url = `${baseUrl.replace(/\/+$/, '')}${expandPath(spec.operation.operation.path, spec.pathParams)}${search ? `?${search}` : ''}`;
  return { method: spec.operation.operation.method.toUpperCase(), url, headers, body };
}

function lowerCase(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]));
}

function quote(text: string): string {
  return `'${text.replaceAll("'", "'\\''")}'`;
}

/** A shell command that replays the request; the configured key appears as $KENNEL_API_KEY, never in clear. */
export function curlCommand(request: SentRequest, apiKey: string): string {
  const parts = ['curl', '-i', '-X', request.method, quote(request.url)];
  for (const [name, value] of Object.entries(request.headers)) {
    if (name === 'accept') continue;
    const shown =
      apiKey && value.includes(apiKey)
        ? `"${name}: ${value.replace(apiKey, '$KENNEL_API_KEY').replaceAll('"', '\\"')}"`
        : quote(`${name}: ${value}`);
    parts.push('-H', shown);
  }
  if (request.body !== undefined)
    parts.push('--data-raw', quote(request.body.length > 2000 ? `${request.body.slice(0, 2000)}…` : request.body));
  return parts.join(' ');
}
