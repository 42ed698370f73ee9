import { parseJson } from '../../core/json.js';
import { valueAt } from '../../openapi/json-pointer.js';
import type { Exchange } from '../types.js';

/** What a runtime expression (OpenAPI 3 "Runtime Expressions") evaluated to, or why it could not be. */
export type Evaluated = { ok: true; value: unknown } | { ok: false; reason: string };

/** The raw (still encoded) path segments of a template's parameters: the template matched against the path, segment by segment. */
function templateSegments(pathname: string, template: string): Map<string, string> {
  const names = template.split('/');
  const values = pathname.split('/').slice(-names.length);
  const found = new Map<string, string>();
  names.forEach((segment, index) => {
    const name = /^\{(.+)\}$/.exec(segment)?.[1];
    if (name !== undefined && !found.has(name)) found.set(name, values[index] ?? '');
  });
  return found;
}

/**
 * The raw path segments of a template's parameters when the template's fixed segments are the
 * path's own, right-aligned (`/api/tasks/7` fits `/tasks/{id}`; `/api/notes/7` does not): undefined otherwise.
 */
export function matchedTemplateSegments(pathname: string, template: string): Map<string, string> | undefined {
  const names = template.split('/').filter((segment) => segment !== '');
  const values = pathname.split('/').slice(-names.length);
  if (values.length !== names.length) return undefined;
  if (names.some((segment, index) => !segment.includes('{') && segment !== values[index])) return undefined;
  return templateSegments(pathname, template);
}

function fromUrl(url: string, where: 'query' | 'path', name: string, template: string): unknown {
  const parsed = new URL(url);
  if (where === 'query') return parsed.searchParams.get(name) ?? undefined;
  const segment = templateSegments(parsed.pathname, template).get(name);
  return segment === undefined ? undefined : decodeURIComponent(segment);
}

/** Every path parameter the request was sent with (`{ServiceSid: "VA1"}`), its URL read once. */
export function requestPathValues(exchange: Exchange): Record<string, string> {
  const segments = templateSegments(new URL(exchange.request.url).pathname, exchange.operation.operation.path);
  return Object.fromEntries([...segments].map(([name, segment]) => [name, decodeURIComponent(segment)]));
}

function bodyAt(value: unknown, pointer: string): unknown {
  try {
    return valueAt(value, pointer);
  } catch {
    return undefined; // not a JSON pointer
  }
}

function requestBody(text: string | undefined): unknown {
  if (text === undefined || text === '') return undefined;
  const parsed = parseJson(text);
  return parsed.ok ? parsed.value : undefined;
}

/**
 * Evaluates a link parameter: a runtime expression (`$response.body#/id`, `$request.path.petId`,
 * `$response.header.Location`, `$statusCode`, `$url`, `$method`) against the exchange that
 * documented the link, or a constant (any value that is not such an expression).
 */
export function evaluate(expression: unknown, exchange: Exchange): Evaluated {
  if (typeof expression !== 'string' || !expression.startsWith('$')) return { ok: true, value: expression };
  const found = (value: unknown): Evaluated =>
    value === undefined ? { ok: false, reason: `${expression} is absent` } : { ok: true, value };
  const { request, response } = exchange;
  if (expression === '$url') return found(request.url);
  if (expression === '$method') return found(request.method);
  if (expression === '$statusCode') return found(response?.status);
  const body = /^\$(request|response)\.body(?:#(.*))?$/.exec(expression);
  if (body) {
    const parsed =
      body[1] === 'request' ? requestBody(request.body) : response?.json?.ok ? response.json.value : undefined;
    return found(parsed === undefined ? undefined : bodyAt(parsed, body[2] ?? ''));
  }
  const header = /^\$(request|response)\.header\.(.+)$/.exec(expression);
  if (header) {
    const headers = header[1] === 'request' ? request.headers : (response?.headers ?? {});
    return found(headers[header[2]!.toLowerCase()]);
  }
  const parameter = /^\$request\.(query|path)\.(.+)$/.exec(expression);
  if (parameter)
    return found(
      fromUrl(request.url, parameter[1] as 'query' | 'path', parameter[2]!, exchange.operation.operation.path),
    );
  return { ok: false, reason: `${expression} is not a runtime expression kennel evaluates` };
}
