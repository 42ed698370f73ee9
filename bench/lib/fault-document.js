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
 * The view of `operations` (kennel's Operation list, from the dereferenced document): operationAt(method,
 * url) matches the URL's path at its end (a deployment's base path before it), concrete paths first.
 */
export function documentView(operations) {
  const compiled = operations
    .map((operation) => ({ operation, pattern: templatePattern(operation.path) }))
    .sort((a, b) => literalLength(b.operation.path) - literalLength(a.operation.path));
  return {
    operationAt(method, url) {
      const pathname = url.split('?')[0];
      const lower = method.toLowerCase();
      for (let at = pathname.indexOf('/'); at >= 0; at = pathname.indexOf('/', at + 1)) {
        const tail = pathname.slice(at);
        const found = compiled.find((entry) => entry.operation.method === lower && entry.pattern.test(tail));
        if (found) return found.operation;
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
