import type { PlannedOperation } from './plan.js';

/** The documented operation a URL names, with the path parameters and query it carries. */
export interface UrlTarget {
  operation: PlannedOperation;
  pathParams: Record<string, string>;
  query: Record<string, string>;
}

const REGEX_SPECIAL = /[.*+?^${}()|[\]\\]/g;

/** Characters of a path template outside its `{parameters}`: the more, the more concrete the path. */
function literalLength(template: string): number {
  return template.replace(/\{[^}]*\}/g, '').length;
}

function templateMatch(template: string, path: string): Record<string, string> | undefined {
  const names: string[] = [];
  const pattern = template
    .split(/(\{[^}]+\})/)
    .map((part) => {
      const parameter = /^\{([^}]+)\}$/.exec(part);
      if (!parameter) return part.replace(REGEX_SPECIAL, '\\$&');
      names.push(parameter[1]!);
      return '([^/]+)';
    })
    .join('');
  const match = new RegExp(`^${pattern}/?$`).exec(path);
  if (!match) return undefined;
  const values: Record<string, string> = {};
  try {
    names.forEach((name, index) => (values[name] = decodeURIComponent(match[index + 1]!)));
  } catch {
    return undefined; // a malformed percent-encoding names nothing
  }
  return values;
}

/**
 * The operation of `method` that `url` (absolute, or relative to `from`) names under the base
 * URL: concrete paths win over templated ones (OpenAPI path matching). Undefined for a URL on
 * another origin, outside the base path, or matching no operation.
 */
export function operationAt(
  url: string,
  from: string,
  baseUrl: string,
  operations: readonly PlannedOperation[],
  method = 'get',
): UrlTarget | undefined {
  let target: URL;
  let base: URL;
  try {
    target = new URL(url, from);
    base = new URL(baseUrl);
  } catch {
    return undefined;
  }
  const prefix = base.pathname.replace(/\/+$/, '');
  if (target.origin !== base.origin || !target.pathname.startsWith(prefix)) return undefined;
  const path = target.pathname.slice(prefix.length) || '/';
  const candidates = operations
    .filter((operation) => operation.operation.method === method)
    .sort((a, b) => literalLength(b.operation.path) - literalLength(a.operation.path));
  for (const operation of candidates) {
    const pathParams = templateMatch(operation.operation.path, path);
    if (pathParams) return { operation, pathParams, query: Object.fromEntries(target.searchParams) };
  }
  return undefined;
}

/**
 * The path parameters `url` gives the template `template` (`/pets/{petId}`), matched at the end of
 * its path (the base path before it is the deployment's): undefined when the URL does not fit.
 */
export function pathParamsAt(template: string, url: string): Record<string, string> | undefined {
  let path: string;
  try {
    path = new URL(url).pathname;
  } catch {
    return undefined;
  }
  return pathParamsIn(template, path);
}

/** The same for a URL path (`/v1/projects/7/tasks`): the template matched at one of its segment boundaries to the end. */
export function pathParamsIn(template: string, path: string): Record<string, string> | undefined {
  for (let at = path.indexOf('/'); at >= 0; at = path.indexOf('/', at + 1)) {
    const values = templateMatch(template, path.slice(at));
    if (values) return values;
  }
  return undefined;
}
