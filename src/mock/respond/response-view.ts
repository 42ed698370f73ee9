import { parseJson, stringifyJson } from '../../core/json.js';
import { valueAt } from '../../openapi/json-pointer.js';
import type { LoadedDocument } from '../../openapi/load.js';
import type { JsonSchema } from '../../openapi/openapi-types.js';
import { jsonMediaType, responseFor, type Operation } from '../../openapi/operations.js';
import type { HttpResponse } from '../../http/http-response.js';
import { propertyOf } from '../request/property-of.js';

const MAX_DEPTH = 32;

/** Removes, in place, what `schema` marks writeOnly from `value` (properties at any depth, array items). */
function strip(value: unknown, schema: JsonSchema | undefined, depth: number): void {
  if (typeof schema !== 'object' || value === null || typeof value !== 'object' || depth > MAX_DEPTH) return;
  if (Array.isArray(value)) {
    const items = typeof schema.items === 'object' ? (schema.items as JsonSchema) : undefined;
    for (const item of value) strip(item, items, depth + 1);
    return;
  }
  const record = value as Record<string, unknown>;
  for (const name of Object.keys(record)) {
    const property = propertyOf(schema, name);
    if (typeof property === 'object' && property.writeOnly === true) delete record[name];
    else strip(record[name], property, depth + 1);
  }
}

function mentionsWriteOnly(schema: JsonSchema | undefined): boolean {
  try {
    return JSON.stringify(schema ?? {}).includes('"writeOnly":true');
  } catch {
    return true; // cyclic: assume it may
  }
}

/**
 * The response view of JSON bodies: what the documented response schema marks `writeOnly` (a
 * password a client sent and the store kept) is never sent back. Only operations whose response
 * schema mentions writeOnly pay for a parse; the decision is kept per operation and status.
 */
export class ResponseView {
  readonly #document: LoadedDocument;
  readonly #schemas = new WeakMap<Operation, Map<number, JsonSchema | null>>();

  constructor(document: LoadedDocument) {
    this.#document = document;
  }

  apply(operation: Operation, response: HttpResponse): HttpResponse {
    if (response.json === undefined) return response;
    const schema = this.#schemaFor(operation, response.status);
    if (!schema) return response;
    const parsed = parseJson(response.json);
    if (!parsed.ok) return response;
    strip(parsed.value, schema, 0);
    return { ...response, json: stringifyJson(parsed.value) };
  }

  #schemaFor(operation: Operation, status: number): JsonSchema | undefined {
    let byStatus = this.#schemas.get(operation);
    if (!byStatus) {
      byStatus = new Map();
      this.#schemas.set(operation, byStatus);
    }
    let schema = byStatus.get(status);
    if (schema === undefined) {
      const response = responseFor(operation, status);
      const media = response && jsonMediaType(response.content);
      const found = media?.schema && (valueAt(this.#document.dereferenced, media.schema.pointer) as JsonSchema);
      schema = found && mentionsWriteOnly(found) ? found : null;
      byStatus.set(status, schema);
    }
    return schema ?? undefined;
  }
}
