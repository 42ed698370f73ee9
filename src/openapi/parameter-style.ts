import type { JsonSchema } from './openapi-types.js';
import type { OperationParameter } from './operations.js';
import { objectShape, typesOf } from './schema-shape.js';

/** A parameter's text as its style spreads it over a request: one value, repeated values, or an object's fields. */
export type RawParameter = string | string[] | Record<string, string | string[]>;

/** What a request carries, as the parameter readers see it (query names repeated become arrays). */
export interface ParameterSource {
  query: Record<string, string | string[] | undefined>;
  header(name: string): string | string[] | undefined;
}

const DELIMITERS: Record<string, string> = { pipeDelimited: '|', spaceDelimited: ' ' };

const objectSchemas = new WeakMap<object, boolean>();

/**
 * A parameter whose value is an object, never an array (styled as key/value pairs): stricter than
 * `isObjectSchema`, and remembered per schema, as parameters are read on every request.
 */
export function isObjectValued(schema: JsonSchema | undefined): boolean {
  if (typeof schema !== 'object') return false;
  let object = objectSchemas.get(schema);
  if (object === undefined) {
    const types = typesOf(schema);
    object = types.includes('object') && !types.includes('array');
    objectSchemas.set(schema, object);
  }
  return object;
}

/** `R,100,G,200` → `{R: '100', G: '200'}` (a non-exploded object); an odd count is no object. */
function pairs(values: readonly string[]): Record<string, string> | undefined {
  if (values.length % 2 !== 0) return undefined;
  const out: Record<string, string> = {};
  for (let index = 0; index < values.length; index += 2) out[values[index]!] = values[index + 1]!;
  return out;
}

/** `R=100,G=200` → `{R: '100', G: '200'}` (an exploded object in the simple style). */
function assignments(values: readonly string[]): Record<string, string> | undefined {
  const out: Record<string, string> = {};
  for (const value of values) {
    const at = value.indexOf('=');
    if (at < 0) return undefined;
    out[value.slice(0, at)] = value.slice(at + 1);
  }
  return out;
}

function single(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/**
 * The query fields an exploded `form` object spreads over (`?R=100&G=200` for `color`): those its
 * schema declares, or, when it admits others, every field no other parameter of the operation names.
 */
function explodedObject(
  parameter: OperationParameter,
  schema: JsonSchema | undefined,
  source: ParameterSource,
  others: ReadonlySet<string>,
): Record<string, string | string[]> | undefined {
  const declared = objectShape(schema).properties;
  const open =
    typeof schema === 'object' && schema.additionalProperties !== false && Object.keys(declared).length === 0;
  const out: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(source.query)) {
    if (value === undefined || (others.has(name) && name !== parameter.name)) continue;
    if (name in declared || (open && name !== parameter.name)) out[name] = value;
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

/** `?color[R]=100&color[G]=200` → `{R: '100', G: '200'}`. */
function deepObject(name: string, source: ParameterSource): Record<string, string | string[]> | undefined {
  const prefix = `${name}[`;
  const out: Record<string, string | string[]> = {};
  for (const [key, value] of Object.entries(source.query))
    if (value !== undefined && key.startsWith(prefix) && key.endsWith(']')) out[key.slice(prefix.length, -1)] = value;
  return Object.keys(out).length > 0 ? out : undefined;
}

/**
 * The raw value of a query or header parameter as its `style` and `explode` spread it (OpenAPI
 * 3.x, Style Values): form (`id=3&id=4`, `id=3,4`, an object's fields as query fields or
 * `color=R,100,G,200`), spaceDelimited and pipeDelimited (`id=3|4`), deepObject
 * (`color[R]=100`), simple headers (`3,4`, `R,100,G,200`, `R=100,G=200`). Undefined when absent;
 * `others` are the names the operation's query parameters take (the parameter's own among them).
 */
export function styledRaw(
  parameter: OperationParameter,
  schema: JsonSchema | undefined,
  source: ParameterSource,
  others: ReadonlySet<string> = new Set(),
): RawParameter | undefined {
  if (parameter.in === 'path' || parameter.in === 'cookie') return undefined;
  const object = isObjectValued(schema);
  if (parameter.in === 'header') {
    const raw = single(source.header(parameter.name.toLowerCase()));
    if (raw === undefined || !object) return raw;
    const values = raw.split(',').map((value) => value.trim());
    return (parameter.explode ? assignments(values) : pairs(values)) ?? raw;
  }
  if (parameter.in !== 'query') return undefined;
  if (parameter.style === 'deepObject') return deepObject(parameter.name, source);
  const raw = source.query[parameter.name];
  const delimiter = DELIMITERS[parameter.style];
  if (object && parameter.style === 'form' && parameter.explode)
    return explodedObject(parameter, schema, source, others);
  if (raw === undefined) return undefined;
  if (delimiter !== undefined && !parameter.explode) {
    const values = (Array.isArray(raw) ? raw : [raw]).flatMap((value) => value.split(delimiter));
    return object ? (pairs(values) ?? single(raw)!) : values;
  }
  if (object) return pairs(single(raw)!.split(',')) ?? single(raw)!;
  return raw;
}

/**
 * An object path parameter's fields from its unstyled text (`unstyledPathValue`): `x=1,y=2` (or
 * the label style's `x=1`, `y=2`) exploded, `x,1,y,2` not. Undefined when the text is no object.
 */
export function pathObject(value: string | string[], explode: boolean): Record<string, string> | undefined {
  const values = Array.isArray(value) ? value : value.split(',');
  return explode ? assignments(values) : pairs(values);
}

/** A path parameter's value as text, an array's items or an object's fields, before its style spreads it. */
export type PathValue = string | readonly string[] | Readonly<Record<string, string>>;

/**
 * A path parameter as its style writes it into the path (OpenAPI 3.x, Style Values; RFC 6570):
 * simple (`5`, `3,4`, `x,1,y,2` or exploded `x=1,y=2`), label (`.5`, `.3,4` or exploded `.3.4`)
 * and matrix (`;cell=5`, `;ids=3,4` or exploded `;ids=3;ids=4`). Each value is percent-encoded
 * by `encode`; the style's own separators stay literal.
 */
export function styledPathValue(
  name: string,
  style: string | undefined,
  explode: boolean,
  value: PathValue,
  encode: (text: string) => string = encodeURIComponent,
): string {
  const fields = typeof value === 'object' && !Array.isArray(value) ? Object.entries(value) : undefined;
  const items: string[] = Array.isArray(value) ? value.map(encode) : typeof value === 'string' ? [encode(value)] : [];
  const entries = (fields ?? []).map(([key, field]) => [encode(key), encode(field)] as const);
  const flat = (joinExploded: string, joinPlain: string): string =>
    fields
      ? explode
        ? entries.map(([key, field]) => `${key}=${field}`).join(joinExploded)
        : entries.flat().join(joinPlain)
      : items.join(explode ? joinExploded : joinPlain);
  if (style === 'label') return `.${flat('.', ',')}`;
  if (style === 'matrix') {
    if (fields && explode) return entries.map(([key, field]) => `;${key}=${field}`).join('');
    if (explode && items.length > 1) return items.map((item) => `;${name}=${item}`).join('');
    return `;${name}=${flat(',', ',')}`;
  }
  return flat(',', ',');
}
