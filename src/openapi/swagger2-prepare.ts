import { pointerOf } from './json-pointer.js';

/** Something the Swagger 2.0 pass changed before conversion, located in the original document. */
export interface PrepareNote {
  pointer: string;
  message: string;
}

type Json = Record<string, unknown>;

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch'];

function isMapping(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * `allowEmptyValue: false` on a formData string field: swagger2openapi moves the field into a
 * request body schema, where the flag has no word, so kennel writes it as `minLength: 1`.
 */
function keepNonEmpty(parameters: unknown): void {
  if (!Array.isArray(parameters)) return;
  for (const parameter of parameters) {
    if (!isMapping(parameter) || parameter.in !== 'formData' || parameter.allowEmptyValue !== false) continue;
    if (parameter.type === 'string' && parameter.minLength === undefined) parameter.minLength = 1;
  }
}

/**
 * Response `examples` are keyed by media type in Swagger 2.0; a key that is none (`error: false`)
 * would become a media type named `error`. It is left out, with a note at its line.
 */
function dropNonMediaExamples(responses: unknown, at: string[], notes: PrepareNote[]): void {
  if (!isMapping(responses)) return;
  for (const [status, response] of Object.entries(responses)) {
    if (!isMapping(response) || !isMapping(response.examples)) continue;
    for (const key of Object.keys(response.examples)) {
      if (key.includes('/')) continue;
      delete response.examples[key];
      notes.push({
        pointer: pointerOf([...at, 'responses', status, 'examples', key]),
        message: `response examples are keyed by media type; "${key}" is none, so kennel leaves this example out`,
      });
    }
  }
}

/** Fixes, in place, what swagger2openapi would carry over wrongly; returns notes for what it changed visibly. */
export function prepareSwagger2(raw: Json): PrepareNote[] {
  const notes: PrepareNote[] = [];
  const paths = isMapping(raw.paths) ? raw.paths : {};
  for (const [path, item] of Object.entries(paths)) {
    if (!isMapping(item)) continue;
    keepNonEmpty(item.parameters);
    for (const method of METHODS) {
      const operation = item[method];
      if (!isMapping(operation)) continue;
      keepNonEmpty(operation.parameters);
      dropNonMediaExamples(operation.responses, ['paths', path, method], notes);
    }
  }
  if (isMapping(raw.parameters)) keepNonEmpty(Object.values(raw.parameters));
  dropNonMediaExamples(raw.responses, [], notes);
  return notes;
}
