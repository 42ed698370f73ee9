import type { Built, DocumentParts, Schema } from './document-parts.js';

const REASONS: Record<string, string> = {
  '400': 'The request is not valid',
  '401': 'Credentials are missing or wrong',
  '404': 'No such item',
  '409': 'The key is taken',
  '422': 'The body is not valid',
  default: 'Something went wrong',
};

/** The document's error responses: `Error` as JSON, or an RFC 9457 `Problem` as problem+json. */
export function errorResponses(parts: DocumentParts, statuses: readonly string[]): Record<string, unknown> {
  const responses: Record<string, unknown> = {};
  for (const status of statuses) responses[status] = errorResponse(parts, status);
  return responses;
}

function errorResponse(parts: DocumentParts, status: string): unknown {
  if (parts.uses('problem-json')) {
    const schema = parts.component('Problem', {
      type: 'object',
      properties: {
        type: { type: 'string', format: 'uri-reference' },
        title: { type: 'string' },
        status: { type: 'integer', minimum: 100, maximum: 599 },
        detail: { type: 'string' },
        instance: { type: 'string' },
      },
    });
    return { description: REASONS[status] ?? 'Error', content: { 'application/problem+json': { schema } } };
  }
  const schema = parts.component('Error', {
    type: 'object',
    required: ['code', 'message'],
    properties: { code: { type: 'string' }, message: { type: 'string' } },
  });
  return { description: REASONS[status] ?? 'Error', content: { 'application/json': { schema } } };
}

/** The JSON media type of the document's success bodies: `application/json`, or a vendor `+json` one. */
export function jsonType(parts: DocumentParts): string {
  return parts.uses('vendor-json') ? 'application/vnd.kennel+json' : 'application/json';
}

/** A success response with a JSON body (and, with the `examples` feature, a valid example). */
export function jsonResponse(
  parts: DocumentParts,
  description: string,
  body: Built,
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  const media: Record<string, unknown> = { schema: body.schema };
  if (parts.uses('examples')) {
    if (parts.draws.fork(`example style ${description}`).chance(0.5)) media.example = body.sample(0);
    else media.examples = { first: { summary: 'One example', value: body.sample(0) } };
  }
  return { description, ...extra, content: { [jsonType(parts)]: media } };
}

/** A JSON request body (with an example under the `examples` feature). */
export function jsonRequestBody(parts: DocumentParts, body: Built, required = true): Record<string, unknown> {
  const media: Record<string, unknown> = { schema: body.schema };
  if (parts.uses('examples')) media.example = body.sample(1);
  return { required, content: { 'application/json': media } };
}

/** `Location` of a created item, as a documented response header. */
export function locationHeader(): Record<string, Schema> {
  return { Location: { description: 'Where the new item is', schema: { type: 'string' } } };
}
