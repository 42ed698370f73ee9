import type { JsonSchema } from './openapi-types.js';

const FORMAT_SAMPLES: Record<string, string> = {
  'date-time': '2030-12-05T00:00:00Z',
  date: '2030-12-05',
  time: '00:00:00Z',
  email: 'user@example.com',
  uri: 'https://example.com/',
  url: 'https://example.com/',
  hostname: 'example.com',
  ipv4: '192.0.2.1',
  ipv6: '2001:db8::1',
  uuid: '00000000-0000-4000-8000-000000000000',
};

/**
 * A deterministic value for a (dereferenced) schema: its example, default, const or first enum
 * member, otherwise the simplest value of its type that meets its bounds. Used for canned
 * responses that have no example in the document.
 */
export function sampleOf(schema: JsonSchema | undefined, depth = 0): unknown {
  if (typeof schema !== 'object' || depth > 8) return null;
  for (const key of ['const', 'example', 'default'] as const) if (key in schema) return schema[key];
  if (Array.isArray(schema.examples) && schema.examples.length > 0) return schema.examples[0];
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0];
  if (Array.isArray(schema.allOf))
    return mergeSamples((schema.allOf as JsonSchema[]).map((part) => sampleOf(part, depth + 1)));
  for (const key of ['oneOf', 'anyOf'] as const) {
    const options = schema[key];
    if (Array.isArray(options) && options.length > 0) return sampleOf(options[0] as JsonSchema, depth + 1);
  }
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type ?? (schema.properties ? 'object' : undefined)) {
    case 'object':
      return sampleObject(schema, depth);
    case 'array':
      return [sampleOf(schema.items as JsonSchema | undefined, depth + 1)].slice(
        0,
        Math.max(1, Number(schema.minItems ?? 1)),
      );
    case 'integer':
    case 'number':
      return typeof schema.minimum === 'number'
        ? schema.minimum
        : typeof schema.maximum === 'number' && schema.maximum < 1
          ? schema.maximum
          : 1;
    case 'boolean':
      return true;
    case 'string':
      return FORMAT_SAMPLES[String(schema.format)] ?? 'string'.padEnd(Number(schema.minLength ?? 0), 'x');
    default:
      return null;
  }
}

function sampleObject(schema: Record<string, unknown>, depth: number): Record<string, unknown> {
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  return Object.fromEntries(
    Object.entries(properties).map(([name, property]) => [name, sampleOf(property, depth + 1)]),
  );
}

function mergeSamples(parts: unknown[]): unknown {
  if (parts.every((part) => typeof part === 'object' && part !== null && !Array.isArray(part)))
    return Object.assign({}, ...parts);
  return parts[0] ?? null;
}
