import { stringifyJson } from '../core/json.js';
import type { JsonSchema } from '../openapi/openapi-types.js';
import { isJsonMediaType, responseFor, type MediaType, type Operation } from '../openapi/operations.js';
import { essenceOf, isTextMediaType, isXmlMediaType, negotiate } from './media-negotiation.js';
import { JSON_CONTENT_TYPE, type HttpResponse } from '../http/http-response.js';
import { refName, toXml } from './xml-body.js';

/** The documented media type to answer with: the one `Accept` rates highest, else the first. */
export function pickMedia(content: readonly MediaType[], accept: string | undefined): MediaType | undefined {
  const chosen = negotiate(
    accept,
    content.map((media) => media.mediaType),
  );
  return content.find((media) => media.mediaType === chosen) ?? content[0];
}

/**
 * A response body in its documented media type: JSON as JSON, XML as an XML document (examples
 * as written, other values built from the schema's `xml` names), text as text; no media type
 * (a response documented without content) means no body at all.
 */
export function renderBody(
  body: unknown,
  media: MediaType | undefined,
  resolve: (pointer: string) => JsonSchema | undefined = () => undefined,
): Pick<HttpResponse, 'json' | 'text' | 'contentType'> {
  if (!media) return {};
  const essence = essenceOf(media.mediaType);
  if (isJsonMediaType(media.mediaType)) {
    if (body === undefined) return {};
    const wildcard = essence === 'application/json' || essence.includes('*');
    return { json: stringifyJson(body), contentType: wildcard ? JSON_CONTENT_TYPE : essence };
  }
  if (body === undefined || body === null) return {};
  if (isXmlMediaType(media.mediaType)) {
    const name = refName(media.schema?.schema) ?? 'root';
    const schema = media.schema && (resolve(media.schema.pointer) ?? media.schema.schema);
    return { text: toXml(body, schema, name), contentType: `${essence}; charset=utf-8` };
  }
  const text = typeof body === 'string' ? body : stringifyJson(body);
  return { text, contentType: isTextMediaType(media.mediaType) ? `${essence}; charset=utf-8` : essence };
}

/**
 * An answer built as JSON without a media type (an item the mock keeps, a list page) in the JSON
 * media type its status documents, the one `Accept` rates highest: `application/hal+json` where
 * the document lists only that. `application/json` (or none documented) keeps the default.
 */
export function inDocumentedJsonType(
  operation: Operation,
  response: HttpResponse,
  accept: string | undefined,
): HttpResponse {
  if (response.json === undefined || response.contentType !== undefined) return response;
  const documented = (responseFor(operation, response.status)?.content ?? []).filter((media) =>
    isJsonMediaType(media.mediaType),
  );
  const media = pickMedia(documented, accept);
  if (!media) return response;
  const essence = essenceOf(media.mediaType);
  return essence === 'application/json' || essence.includes('*') ? response : { ...response, contentType: essence };
}
