import { valueAt } from '../../openapi/json-pointer.js';
import type { LoadedDocument } from '../../openapi/load.js';
import type { JsonSchema } from '../../openapi/openapi-types.js';
import type { OperationResponse } from '../../openapi/operations.js';
import { sampleOf } from '../../openapi/generate.js';
import { fits } from '../../openapi/value-fits.js';

/** Headers kennel writes itself (framing, the body's media type): never taken from a document. */
const OWN_HEADERS = new Set(['content-type', 'content-length', 'transfer-encoding', 'connection']);

/**
 * A header value in the `simple` style (the only style OpenAPI allows for headers): arrays
 * comma-separated, objects as `key,value,…`; undefined for null (a header cannot say null).
 */
export function headerText(value: unknown): string | undefined {
  if (value === null || value === undefined) return undefined;
  if (Array.isArray(value)) return value.map((item) => headerText(item) ?? '').join(',');
  if (typeof value === 'object')
    return Object.entries(value as Record<string, unknown>)
      .flatMap(([name, item]) => [name, headerText(item) ?? ''])
      .join(',');
  return String(value);
}

/** Printable ASCII only: Node refuses anything else in a header, and an example may hold any text. */
function printable(text: string): string {
  return text.replace(/[^\x20-\x7e\t]/g, '?');
}

/**
 * The documented headers of a response, each with a value valid for its schema: the header's
 * example (or first `examples` entry) where it fits, else a sample of its schema. A header whose
 * schema admits only null is left out; a boolean header is `true`, never `null`.
 */
export function documentedHeaders(document: LoadedDocument, response: OperationResponse): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, header] of response.headers) {
    if (OWN_HEADERS.has(name) || !header.schema) continue;
    const object = valueAt(document.dereferenced, header.schema.pointer.replace(/\/schema$/, '')) as
      { example?: unknown; examples?: Record<string, { value?: unknown }> } | undefined;
    const schema = valueAt(document.dereferenced, header.schema.pointer) as JsonSchema | undefined;
    const documented = [object?.example, Object.values(object?.examples ?? {})[0]?.value].find(
      (candidate) => candidate !== undefined && candidate !== null && fits(candidate, schema),
    );
    const text = headerText(documented ?? sampleOf(schema, { document: document.dereferenced }));
    if (text !== undefined) headers[name] = printable(text);
  }
  return headers;
}
