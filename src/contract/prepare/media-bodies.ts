import { validValue, type ValueContext } from '../../openapi/generate.js';
import type { JsonSchema } from '../../openapi/openapi-types.js';
import { essenceOf, isFormMediaType } from '../../openapi/operations.js';
import { objectShape } from '../../openapi/schema-shape.js';
import { parameterText } from './parameter-text.js';

/** A request body in a media type other than JSON, as text with its Content-Type. */
export interface MediaBody {
  raw: string;
  contentType: string;
}

/** Media types kennel can write a body in without knowing more than the schema (JSON aside). */
export function buildableMediaType(mediaType: string): boolean {
  const essence = essenceOf(mediaType);
  return isFormMediaType(essence) || essence === 'application/octet-stream' || essence.startsWith('text/');
}

function fields(schema: JsonSchema | undefined, context: ValueContext): [string, unknown][] {
  const value = validValue(schema, context);
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? Object.entries(value) : [];
}

function multipart(schema: JsonSchema | undefined, context: ValueContext): MediaBody {
  const boundary = `kennel-${context.random.word(12)}`;
  const { properties } = objectShape(schema);
  const parts = fields(schema, context).map(([name, value]) => {
    const property = properties[name];
    const binary = typeof property === 'object' && (property.format === 'binary' || property.format === 'byte');
    const disposition = `Content-Disposition: form-data; name="${name}"${binary ? `; filename="${name}.bin"` : ''}`;
    const type = binary ? '\r\nContent-Type: application/octet-stream' : '';
    return `--${boundary}\r\n${disposition}${type}\r\n\r\n${parameterText(value)}\r\n`;
  });
  return { raw: `${parts.join('')}--${boundary}--\r\n`, contentType: `multipart/form-data; boundary=${boundary}` };
}

/**
 * A valid body of `schema` in `mediaType`: form fields (urlencoded or multipart, files as small
 * octet streams), text, or a few bytes for an octet stream. Undefined for types kennel cannot write.
 */
export function mediaBody(
  mediaType: string,
  schema: JsonSchema | undefined,
  context: ValueContext,
): MediaBody | undefined {
  const essence = essenceOf(mediaType);
  if (essence === 'application/x-www-form-urlencoded') {
    const form = new URLSearchParams(
      fields(schema, context).map(([name, value]): [string, string] => [name, parameterText(value)]),
    );
    return { raw: form.toString(), contentType: essence };
  }
  if (essence === 'multipart/form-data') return multipart(schema, context);
  if (essence === 'application/octet-stream') return { raw: `kennel ${context.tag}`, contentType: essence };
  if (essence.startsWith('text/')) {
    const value = validValue(schema, context);
    return {
      raw: value === null || value === undefined ? `kennel ${context.tag}` : parameterText(value),
      contentType: essence,
    };
  }
  return undefined;
}
