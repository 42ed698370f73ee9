import { propertyOf } from './property-of.js';
import type busboy from 'busboy';
import { ProblemError } from '../../core/problem.js';
import type { JsonSchema } from '../../openapi/openapi-types.js';
import { coerceParameter } from '../../openapi/parameter-value.js';

/** Most fields (and files) one form may hold: each becomes a property to validate. */
const MAX_FIELDS = 1000;

function badForm(message: string): ProblemError {
  return new ProblemError(400, 'invalid_body', `Request body is invalid: ${message}`);
}

/**
 * Form fields (strings, repeated names as lists) typed by the object schema's properties, as
 * query parameters are: `age=3` is the integer 3 where `age` is an integer, `tag=a&tag=b` a list.
 */
export function typedFields(
  fields: ReadonlyMap<string, string[]>,
  schema: JsonSchema | undefined,
): Record<string, unknown> {
  const entries: [string, unknown][] = [];
  for (const [name, values] of fields) {
    if (name === '__proto__') throw badForm('a field named "__proto__" is not allowed');
    // allOf parts and oneOf/anyOf alternatives too: a form may describe one of several shapes.
    const property = propertyOf(schema, name);
    const coerced = coerceParameter(values.length === 1 ? values[0]! : values, property, true);
    // A value that does not coerce stays a string: the validator then names the field and its type.
    entries.push([name, coerced.ok ? coerced.value : values.length === 1 ? values[0] : values]);
  }
  return Object.fromEntries(entries);
}

function collect(fields: Map<string, string[]>, name: string, value: string): void {
  if (fields.size >= MAX_FIELDS && !fields.has(name)) throw badForm(`more than ${MAX_FIELDS} fields`);
  const list = fields.get(name) ?? [];
  list.push(value);
  fields.set(name, list);
}

/** An `application/x-www-form-urlencoded` body as fields. */
export function urlEncodedFields(text: string): Map<string, string[]> {
  const fields = new Map<string, string[]>();
  for (const [name, value] of new URLSearchParams(text)) collect(fields, name, value);
  return fields;
}

/**
 * A `multipart/form-data` body (already read whole, within the size limit) as fields, parsed by
 * busboy; a file part's value is its content as text (the schema says `format: binary`).
 */
export async function multipartFields(body: Buffer, contentType: string): Promise<Map<string, string[]>> {
  // Loaded by the first multipart body, not at start-up: a server keeps what it loads, and most
  // documents never take one.
  const { default: parse } = await import('busboy');
  return new Promise((resolve, reject) => {
    const fields = new Map<string, string[]>();
    let parser: busboy.Busboy;
    try {
      parser = parse({
        headers: { 'content-type': contentType },
        limits: { parts: MAX_FIELDS, fieldNameSize: 200, fieldSize: body.length + 1, fileSize: body.length + 1 },
      });
    } catch (error) {
      reject(badForm(`multipart/form-data cannot be read: ${(error as Error).message}`));
      return;
    }
    const fail = (error: unknown) =>
      reject(
        error instanceof ProblemError
          ? error
          : badForm(`multipart/form-data is malformed: ${(error as Error).message}`),
      );
    parser.on('field', (name, value) => {
      try {
        collect(fields, name, value);
      } catch (error) {
        fail(error);
      }
    });
    parser.on('file', (name, stream) => {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        try {
          collect(fields, name, Buffer.concat(chunks).toString('utf8'));
        } catch (error) {
          fail(error);
        }
      });
    });
    parser.on('partsLimit', () => fail(badForm(`more than ${MAX_FIELDS} parts`)));
    parser.on('error', fail);
    parser.on('close', () => resolve(fields));
    parser.end(body);
  });
}
