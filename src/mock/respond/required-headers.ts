import type { HttpResponse } from '../../http/http-response.js';
import type { LoadedDocument } from '../../openapi/load.js';
import type { Operation } from '../../openapi/operations.js';
import { documentedHeaders } from './documented-headers.js';

/** Validators mean something only where kennel honours them (304, 412), which it does not: never invented. */
const VALIDATORS = new Set(['etag', 'last-modified']);

/** Headers by the status they are documented for. */
export type HeadersByStatus = ReadonlyMap<number, Readonly<Record<string, string>>>;

/**
 * The headers each documented status of `operation` requires, valued as the document's own answers
 * are (its example, else a sample of its schema), validators aside. Stored items' answers carry
 * them as the document's canned answers do, so a client (and kennel check) finds what is promised.
 */
export function requiredHeadersOf(document: LoadedDocument, operation: Operation): HeadersByStatus {
  const byStatus = new Map<number, Record<string, string>>();
  for (const response of operation.responses) {
    if (!/^\d{3}$/.test(response.status)) continue;
    const required = [...response.headers]
      .filter(([name, header]) => header.required && !VALIDATORS.has(name))
      .map(([name]) => name);
    if (required.length === 0) continue;
    const values = documentedHeaders(document, response);
    const chosen = Object.fromEntries(
      required.flatMap((name) => (values[name] === undefined ? [] : [[name, values[name]]])),
    );
    if (Object.keys(chosen).length > 0) byStatus.set(Number(response.status), chosen);
  }
  return byStatus;
}

/** `response` with the required headers its status documents; a header kennel set itself wins. */
export function withRequiredHeaders(response: HttpResponse, required: HeadersByStatus): HttpResponse {
  const extra = required.get(response.status);
  return extra ? { ...response, headers: { ...extra, ...response.headers } } : response;
}
