import { parseJson, stringifyJson } from '../../core/json.js';
import { isObjectValued, styledPathValue, type PathValue } from '../../openapi/parameter-style.js';
import { typesOf } from '../../openapi/schema-shape.js';
import { wrapBody } from './body-wrapper.js';
import { sampleOf } from '../../openapi/generate.js';
import { essenceOf, isJsonMediaType, jsonMediaType, type Operation } from '../../openapi/operations.js';
import type { PlannedOperation, PlannedParameter } from './plan.js';
import type { OmittedParameter, RequestSpec, SentRequest } from '../types.js';
import { parameterText } from './parameter-text.js';
import { bodyNamingItsPath } from './path-key-body.js';

export { parameterText };

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
  if (key === '' && auth === 'valid') return headers; // no key configured: nothing to send
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

/** A value the parameter's schema allows (its example, default, first enum member, a uuid for format uuid…). */
export function defaultParameterValue(parameter: PlannedParameter): string {
  const text = parameterText(sampleOf(parameter.resolved));
  // A path parameter declared without a schema still names one item: an empty segment
  // (`/wallets//tokens/`) would be another URL, routed elsewhere or nowhere.
  return parameter.in === 'path' && text === '' ? parameterText(sampleOf({ type: 'string' })) : text;
}

function expandPath(operation: PlannedOperation, values: Record<string, string> = {}): string {
  const byName = new Map(operation.parameters.filter((item) => item.in === 'path').map((item) => [item.name, item]));
  return operation.operation.path.replace(/\{([^}]+)\}/g, (_whole, name: string) => {
    const parameter = byName.get(name);
    const text = values[name] ?? (parameter ? defaultParameterValue(parameter) : '1');
    if (!parameter) return encodeURIComponent(text);
    return styledPathValue(name, parameter.style, parameter.explode, pathValueOf(parameter, text));
  });
}

/**
 * A path parameter's text (as `parameterText` writes values: arrays comma-joined, objects as
 * JSON) as its items or fields, for its style to spread; text that is no such value stays text.
 */
function pathValueOf(parameter: PlannedParameter, text: string): PathValue {
  if (isObjectValued(parameter.resolved)) {
    const parsed = parseJson(text);
    const value = parsed.ok ? parsed.value : undefined;
    if (value !== null && typeof value === 'object' && !Array.isArray(value))
      return Object.fromEntries(Object.entries(value).map(([key, field]) => [key, parameterText(field)]));
    return text;
  }
  return typesOf(parameter.resolved).includes('array') && text !== '' ? text.split(',') : text;
}

/** Headers OpenAPI says a header parameter cannot describe (the request's own machinery). */
const RESERVED_HEADERS = new Set(['accept', 'content-type', 'authorization']);

/** Required query, header and cookie parameters a request would otherwise miss, with schema-valid values. */
function requiredParameters(
  operation: PlannedOperation,
  query: Record<string, string>,
  headers: Record<string, string>,
  omitted: readonly OmittedParameter[],
): void {
  const cookies: string[] = [];
  for (const parameter of operation.parameters) {
    if (!parameter.required) continue;
    if (omitted.some((item) => item.in === parameter.in && item.name === parameter.name)) continue;
    const name = parameter.name.toLowerCase();
    if (parameter.in === 'query' && !(parameter.name in query))
      query[parameter.name] = defaultParameterValue(parameter);
    else if (parameter.in === 'header' && !RESERVED_HEADERS.has(name) && !(name in headers))
      headers[name] = defaultParameterValue(parameter);
    else if (parameter.in === 'cookie') cookies.push(`${parameter.name}=${defaultParameterValue(parameter)}`);
  }
  if (cookies.length > 0) headers.cookie = [headers.cookie, ...cookies].filter(Boolean).join('; ');
}

/**
 * The Accept header for an operation, from the media types its responses document: JSON first when
 * documented, else the first documented type, the others after it at a lower weight; any media type
 * when none is documented.
 */
export function acceptFor(operation: Operation): string {
  const types = [
    ...new Set(
      operation.responses
        .slice()
        .sort((a, b) => Number(!a.status.startsWith('2')) - Number(!b.status.startsWith('2')))
        .flatMap((response) => response.content.map((media) => essenceOf(media.mediaType))),
    ),
  ];
  if (types.length === 0 || types.includes('*/*')) return '*/*';
  const json = types.includes('application/json') ? 'application/json' : types.find(isJsonMediaType);
  const preferred = json ?? types[0]!;
  return [preferred, ...types.filter((type) => type !== preferred).map((type) => `${type};q=0.5`)].join(', ');
}

/**
 * The media type a JSON body is sent as: the one the document gives the request body
 * (`application/merge-patch+json` for a merge patch), `application/json` when it names none or any.
 */
export function jsonBodyType(operation: Operation): string {
  const documented = operation.requestBody && jsonMediaType(operation.requestBody.content)?.mediaType;
  const essence = documented?.split(';')[0]!.trim().toLowerCase();
  return essence === undefined || essence === '*/*' ? 'application/json' : essence;
}

/** Turns what a check asks for into the exact HTTP request (URL, headers, body text). */
export function buildRequest(baseUrl: string, spec: RequestSpec, credentials: Credentials): SentRequest {
  const query: Record<string, string> = { ...spec.query };
  const headers: Record<string, string> = {
    accept: acceptFor(spec.operation.operation),
    ...lowerCase(spec.headers ?? {}),
    ...lowerCase(credentials.headers),
  };
  Object.assign(headers, authHeaders(spec.operation, spec.auth ?? 'valid', credentials, query));
  // A followed link is sent as it is: only credentials join its query.
  requiredParameters(spec.operation, spec.url === undefined ? query : {}, headers, spec.omit ?? []);
  let body: string | undefined;
  if (spec.body)
    body =
      'raw' in spec.body
        ? spec.body.raw
        : stringifyJson(wrapBody(bodyNamingItsPath(spec, spec.body.value), spec.operation.body?.wrapper));
  const contentType =
    spec.contentType === undefined ? (spec.body ? jsonBodyType(spec.operation.operation) : null) : spec.contentType;
  if (contentType !== null) headers['content-type'] = contentType;
  const search = new URLSearchParams(query).toString();
  const url =
    spec.url === undefined
      ? `${baseUrl.replace(/\/+$/, '')}${expandPath(spec.operation, spec.pathParams)}${search ? `?${search}` : ''}`
      : withQuery(spec.url, query);
  return { method: spec.operation.operation.method.toUpperCase(), url, headers, body };
}

/** `url` with `query` added (credentials sent in the query go with a followed link too). */
function withQuery(url: string, query: Record<string, string>): string {
  const parsed = new URL(url);
  for (const [name, value] of Object.entries(query))
    if (!parsed.searchParams.has(name)) parsed.searchParams.set(name, value);
  return parsed.toString();
}

function lowerCase(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]));
}

/** Single-quoted for any POSIX shell: nothing inside is expanded. */
function quote(text: string): string {
  return `'${text.replaceAll("'", "'\\''")}'`;
}

/**
 * Shell expansions (POSIX sh, bash, zsh) that rebuild the spellings of the key a check sends, so a
 * replay line carries `$KENNEL_API_KEY` and never the key: the key itself and its near misses (one
 * character fewer, upper or lower case), longest first.
 */
function keySpellings(apiKey: string): { text: string; shell: string }[] {
  const variable = 'KENNEL_API_KEY';
  const convert = (from: string, to: string) => `$(printf %s "$${variable}" | tr '[:${from}:]' '[:${to}:]')`;
  const forms = [
    { text: apiKey, shell: `\${${variable}}` },
    { text: apiKey.slice(0, -1), shell: `\${${variable}%?}` },
    { text: apiKey.toUpperCase(), shell: convert('lower', 'upper') },
    { text: apiKey.toLowerCase(), shell: convert('upper', 'lower') },
  ].filter((form) => form.text !== '');
  const unique = new Map<string, string>();
  for (const form of forms) if (!unique.has(form.text)) unique.set(form.text, form.shell);
  return [...unique].map(([text, shell]) => ({ text, shell })).sort((a, b) => b.text.length - a.text.length);
}

/** Key spellings shorter than this count only as whole words (`Bearer k`), not inside other text. */
const MIN_EMBEDDED_FORM = 4;

const WORD_CHARACTER = /[A-Za-z0-9_-]/;

function spellingAt(
  text: string,
  index: number,
  forms: readonly { text: string; shell: string }[],
): { text: string; shell: string } | undefined {
  return forms.find((form) => {
    if (!text.startsWith(form.text, index)) return false;
    if (form.text.length >= MIN_EMBEDDED_FORM) return true;
    const before = text[index - 1] ?? ' ';
    const after = text[index + form.text.length] ?? ' ';
    return !WORD_CHARACTER.test(before) && !WORD_CHARACTER.test(after);
  });
}

/** Characters that keep their meaning inside double quotes, and `!` (history expansion in an interactive bash). */
const DOUBLE_QUOTE_SPECIAL = /[$`"\\!]/;

type WordPart = { literal: string } | { shell: string };

/**
 * One shell word for `text`: single-quoted, unless it holds a spelling of the key, which becomes
 * an expansion of `$KENNEL_API_KEY` (`"authorization: Bearer ${KENNEL_API_KEY}x"`).
 */
export function shellWord(text: string, apiKey: string): string {
  const forms = apiKey ? keySpellings(apiKey) : [];
  const parts: WordPart[] = [];
  let literal = '';
  for (let index = 0; index < text.length;) {
    const form = spellingAt(text, index, forms);
    if (form) {
      if (literal) parts.push({ literal });
      literal = '';
      parts.push({ shell: form.shell });
      index += form.text.length;
    } else {
      literal += text[index];
      index += 1;
    }
  }
  if (literal) parts.push({ literal });
  if (!parts.some((part) => 'shell' in part)) return quote(text);
  const plain = parts.every((part) => !('literal' in part) || !DOUBLE_QUOTE_SPECIAL.test(part.literal));
  if (plain) return `"${parts.map((part) => ('literal' in part ? part.literal : part.shell)).join('')}"`;
  return parts.map((part) => ('literal' in part ? quote(part.literal) : `"${part.shell}"`)).join('');
}

/**
 * Replay arguments for `Basic <base64 of user:password>` whose decoded credentials hold a spelling
 * of the key: curl's `-u` for the usual spelling, else the header with the base64 computed by the
 * shell (`basic   $(printf %s "kennel:${KENNEL_API_KEY}" | base64 | tr -d '\n')`).
 */
function basicCredentials(header: string, value: string, apiKey: string): string[] | undefined {
  const match = /^(basic)(\s+)([A-Za-z0-9+/]+=*)$/i.exec(value);
  if (!match || !apiKey) return undefined;
  const [, scheme, spaces, encoded] = match as unknown as [string, string, string, string];
  const decoded = Buffer.from(encoded, 'base64').toString('utf8');
  if (Buffer.from(decoded, 'utf8').toString('base64') !== encoded || !decoded.includes(':')) return undefined;
  const word = shellWord(decoded, apiKey);
  if (word === quote(decoded)) return undefined;
  if (header === 'authorization' && scheme === 'Basic' && spaces === ' ') return ['-u', word];
  const computed = `$(printf %s ${word} | base64 | tr -d '\\n')`;
  return ['-H', `${quote(`${header}: ${scheme}${spaces}`)}"${computed}"`];
}

/**
 * A shell command that replays the request exactly; the configured key (and its near misses)
 * appear as expansions of $KENNEL_API_KEY, never in clear.
 */
export function curlCommand(request: SentRequest, apiKey: string): string {
  const parts = ['curl', '-i', '-X', request.method, shellWord(request.url, apiKey)];
  for (const [name, value] of Object.entries(request.headers)) {
    // curl sends `Accept: */*`; a JSON API answers JSON to it, so only another choice is spelled out.
    if (name === 'accept' && (value === '*/*' || value.startsWith('application/json'))) continue;
    const basic = name.endsWith('authorization') ? basicCredentials(name, value, apiKey) : undefined;
    parts.push(...(basic ?? ['-H', shellWord(`${name}: ${value}`, apiKey)]));
  }
  if (request.body !== undefined)
    parts.push(
      '--data-raw',
      shellWord(request.body.length > 2000 ? `${request.body.slice(0, 2000)}…` : request.body, apiKey),
    );
  return parts.join(' ');
}
