import type { LoadedDocument } from './load.js';
import { valueAt } from './json-pointer.js';
import type { JsonSchema } from './openapi-types.js';
import { isFormMediaType, jsonMediaType, type Operation } from './operations.js';
import type { ResolvedParameter } from './resource-list.js';
import { isObjectSchema, objectVariants, typesOf } from './schema-shape.js';

/** Dereferenced schema at `pointer`. */
export function schemaAt(document: LoadedDocument, pointer: string | undefined): JsonSchema | undefined {
  return pointer === undefined ? undefined : (valueAt(document.dereferenced, pointer) as JsonSchema | undefined);
}

/** Dereferenced JSON schema of the first documented 2xx response. */
export function successSchemaOf(document: LoadedDocument, operation: Operation): JsonSchema | undefined {
  const response = operation.responses.find((candidate) => /^2\d\d$/.test(candidate.status));
  return schemaAt(document, response && jsonMediaType(response.content)?.schema?.pointer);
}

/**
 * Dereferenced request body schema: the JSON one, else a form's. A form body describes the same
 * item a JSON body would (`POST /Services/{sid}/RateLimits` with `UniqueName=…` creates a rate
 * limit): APIs that take forms have resources too.
 */
export function bodySchemaOf(document: LoadedDocument, operation: Operation): JsonSchema | undefined {
  const content = operation.requestBody?.content ?? [];
  const media = jsonMediaType(content) ?? content.find((candidate) => isFormMediaType(candidate.mediaType));
  return schemaAt(document, media?.schema?.pointer);
}

/** An object schema, or a oneOf/anyOf whose every branch is one (a body with variants, such as DNS records by type). */
export function isObjectBody(schema: JsonSchema | undefined): boolean {
  return isObjectSchema(schema) || objectVariants(schema) !== undefined;
}

/**
 * An array of object bodies (variants too): what a bulk create sends or answers, and what a list
 * response holds (`listShapeOf` reads the items' keys through `sharedShape`).
 */
export function isObjectList(schema: JsonSchema | undefined): boolean {
  return typeof schema === 'object' && typesOf(schema).includes('array') && isObjectBody(schema.items as JsonSchema);
}

/** The operation's parameters with their schemas dereferenced. */
export function resolvedParameters(document: LoadedDocument, operation: Operation): ResolvedParameter[] {
  return operation.parameters.map((parameter) => ({
    ...parameter,
    resolved: schemaAt(document, parameter.schema?.pointer),
  }));
}
