// What the fault proxy reads of a document: the operation a request names and what its answers
// document (statuses, JSON schemas, headers), so that a fault is applied only where the document
// makes it one (a 200 where 201 is the only documented success, a required property dropped…).
// Built from kennel's own loader (dist/), dereferenced schemas; no knowledge of any particular API.

const REGEX_SPECIAL = /[.*+?^${}()|[\]\\]/g;

function templatePattern(template) {
  const body = template
    .split(/(\{[^}]+\})/)
    .map((part) => (/^\{[^}]+\}$/.test(part) ? '[^/]+' : part.replace(REGEX_SPECIAL, '\\$&')))
    .join('');
  return new RegExp(`^${body}/?$`);
}

const literalLength = (template) => template.replace(/\{[^}]*\}/g, '').length;

/**
 * The view of `operations` (kennel's Operation list, from the dereferenced document) served under
 * `basePath`: operationAt(method, url) matches what follows the base path (else the URL's path at
 * its end), concrete paths first.
 */
export function documentView(operations, basePath = '') {
  const compiled = operations
    .map((operation) => ({ operation, pattern: templatePattern(operation.path) }))
    .sort((a, b) => literalLength(b.operation.path) - literalLength(a.operation.path));
  const find = (method, path) =>
    compiled.find((entry) => entry.operation.method === method && entry.pattern.test(path))?.operation;
  return {
    operationAt(method, url) {
      const pathname = url.split('?')[0];
      const lower = method.toLowerCase();
      // Under the deployment's base path, only what follows it names an operation: the base URL
      // itself (`/v1`) is not `/{id}`.
      if (basePath !== '' && (pathname === basePath || pathname.startsWith(`${basePath}/`)))
        return find(lower, pathname.slice(basePath.length) || '/');
      for (let at = pathname.indexOf('/'); at >= 0; at = pathname.indexOf('/', at + 1)) {
        const found = find(lower, pathname.slice(at));
        if (found) return found;
      }
      return undefined;
    },
  };
}

/** The response `operation` documents for `status`: exact, then `4XX`-style, then `default`. */
export function documentedResponse(operation, status) {
  if (!operation) return undefined;
  const byStatus = (written) => operation.responses.find((response) => response.status.toUpperCase() === written);
  return byStatus(String(status)) ?? byStatus(`${String(status)[0]}XX`) ?? byStatus('DEFAULT');
}

/** Whether `operation` documents `status` itself (exactly, by range or by default). */
export const documents = (operation, status) => documentedResponse(operation, status) !== undefined;

/** The JSON schema of a documented response, undefined when it has none. */
export function jsonSchemaOf(response) {
  const media = response?.content.find((entry) => /json/i.test(entry.mediaType));
  return media?.schema?.schema;
}
