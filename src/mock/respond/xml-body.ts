import type { XMLBuilder } from 'fast-xml-builder';
import type { JsonSchema } from '../../openapi/openapi-types.js';
import { xmlBuilderClass } from '../commonjs.js';

let builder: XMLBuilder | undefined;

/** The one builder, made by the first XML answer. */
function xmlBuilder(): XMLBuilder {
  builder ??= new (xmlBuilderClass())({ format: false, ignoreAttributes: true, suppressEmptyNode: false });
  return builder;
}

const MAX_DEPTH = 64;

/** A property name as an XML element name: characters XML names cannot hold become `_`. */
function elementName(name: string): string {
  const safe = name.replace(/[^A-Za-z0-9_.-]/g, '_');
  return /^[A-Za-z_]/.test(safe) ? safe : `_${safe}`;
}

/** The value with every property renamed to a valid element name (keys come from clients too). */
function withElementNames(value: unknown, depth = 0): unknown {
  if (value === null || typeof value !== 'object' || depth > MAX_DEPTH) return value;
  if (Array.isArray(value)) return value.map((item) => withElementNames(item, depth + 1));
  return Object.fromEntries(
    Object.entries(value as Record<string, unknown>).map(([name, item]) => [
      elementName(name),
      withElementNames(item, depth + 1),
    ]),
  );
}

/** The element name OpenAPI's `xml.name` gives a schema, else `fallback`. */
function xmlName(schema: JsonSchema | undefined, fallback: string): string {
  const xml = typeof schema === 'object' ? (schema.xml as { name?: unknown } | undefined) : undefined;
  return typeof xml?.name === 'string' && xml.name !== '' ? xml.name : fallback;
}

/** `#/components/schemas/Pet` → `Pet`: the element name a referenced schema gets without `xml.name`. */
export function refName(raw: JsonSchema | undefined): string | undefined {
  const ref = typeof raw === 'object' && typeof raw.$ref === 'string' ? raw.$ref : undefined;
  return ref?.split('/').pop();
}

/**
 * A JSON value as an XML document, named as OpenAPI's `xml` object says (`xml.name` of the schema
 * or of an array's items, else the referenced schema's name); attributes and namespaces are not
 * modelled. A value that already is a string (an XML example) is sent as written.
 */
export function toXml(value: unknown, schema: JsonSchema | undefined, fallbackName = 'root'): string {
  if (typeof value === 'string') return value;
  const root = elementName(xmlName(schema, fallbackName));
  const safe = withElementNames(value);
  if (Array.isArray(safe)) {
    const items = typeof schema === 'object' ? (schema.items as JsonSchema | undefined) : undefined;
    return xmlBuilder().build({ [root]: { [elementName(xmlName(items, 'item'))]: safe } });
  }
  return xmlBuilder().build({ [root]: safe });
}
