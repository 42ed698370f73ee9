import type { JsonSchema } from '../../openapi/openapi-types.js';
import { sameJson } from './same-json.js';

const MAX_DEPTH = 16;

function decoded(token: string): string {
  return token.replaceAll('~1', '/').replaceAll('~0', '~');
}

/** The schemas that may judge the child `token` of a value `schema` judges (through compositions). */
function childNodes(schema: JsonSchema, token: string): JsonSchema[] {
  if (typeof schema !== 'object') return [];
  const found: JsonSchema[] = [];
  const properties = schema.properties as Record<string, JsonSchema> | undefined;
  if (properties && token in properties) found.push(properties[token]!);
  else if (typeof schema.additionalProperties === 'object') found.push(schema.additionalProperties as JsonSchema);
  if (/^\d+$/.test(token) && typeof schema.items === 'object') found.push(schema.items as JsonSchema);
  return found;
}

/** The schema node and its composition parts (`allOf`, `anyOf`, `oneOf`), flattened. */
function withParts(schema: JsonSchema, depth = 0): JsonSchema[] {
  if (typeof schema !== 'object' || depth > MAX_DEPTH) return [];
  const parts = ['allOf', 'anyOf', 'oneOf'].flatMap((key) =>
    Array.isArray(schema[key]) ? (schema[key] as JsonSchema[]).flatMap((part) => withParts(part, depth + 1)) : [],
  );
  return [schema, ...parts];
}

/** Values the document gives as examples of a schema node: `example`, `examples`, `default`. */
function examplesOf(schema: JsonSchema): unknown[] {
  if (typeof schema !== 'object') return [];
  return [
    ...('example' in schema ? [schema.example] : []),
    ...(Array.isArray(schema.examples) ? (schema.examples as unknown[]) : []),
    ...('default' in schema ? [schema.default] : []),
  ];
}

/**
 * The body is the media example, or holds one of its parts on the way to the failure: an item of
 * a list example served on a page of its own (`limit=1` answers the example's first item).
 */
function withinExample(body: unknown, example: unknown, tokens: readonly string[]): boolean {
  let value = body;
  let node = example;
  for (let depth = 0; depth <= Math.min(tokens.length, MAX_DEPTH); depth += 1) {
    if (sameJson(value, node)) return true;
    if (depth === tokens.length || value === null || typeof value !== 'object') return false;
    if (node === null || typeof node !== 'object') return false;
    const token = tokens[depth]!;
    value = (value as Record<string, unknown>)[token];
    if (value === undefined) return false;
    if (Array.isArray(node)) return node.some((item) => sameJson(item, value));
    node = (node as Record<string, unknown>)[token];
  }
  return false;
}

/**
 * True when a schema failure at `pointer` of `body` comes from the document's own data: the body,
 * or the value at the pointer or at one of its ancestors, is an example the document gives for
 * that place (a media example, or a schema's `example`, `examples` or `default`) that breaks its
 * own schema (`Created: {type: integer, example: "1644009612"}`). That is an inconsistency of the
 * document, which a deployment serving the document's examples cannot be blamed for.
 */
export function fromDocumentedExample(
  schema: JsonSchema,
  body: unknown,
  pointer: string,
  mediaExamples: readonly unknown[],
): boolean {
  const tokens = pointer === '' ? [] : pointer.slice(1).split('/').map(decoded);
  if (mediaExamples.some((example) => withinExample(body, example, tokens))) return true;
  let nodes = withParts(schema);
  let value: unknown = body;
  for (let depth = 0; ; depth += 1) {
    if (nodes.some((node) => examplesOf(node).some((example) => sameJson(example, value)))) return true;
    if (depth >= tokens.length || depth >= MAX_DEPTH || value === null || typeof value !== 'object') return false;
    const token = tokens[depth]!;
    value = (value as Record<string, unknown>)[token];
    if (value === undefined) return false;
    nodes = nodes.flatMap((node) => childNodes(node, token)).flatMap((node) => withParts(node));
  }
}
