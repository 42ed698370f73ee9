import { stringifyJson } from '../../core/json.js';
import type { JsonSchema } from '../../openapi/openapi-types.js';
import { essenceOf, isJsonMediaType, type MediaType } from '../../openapi/operations.js';
import { isTextMediaType, isXmlMediaType, negotiate } from './media-negotiation.js';
import { JSON_CONTENT_TYPE, type HttpResponse } from '../../http/http-response.js';
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
 * The Content-Type of a JSON answer made without its media type in view (a stateful resource's):
 * the documented JSON kind `Accept` rates highest (`application/vnd.api+json`), else undefined
 * (plain `application/json`).
 */
export function jsonContentType(content: readonly MediaType[], accept: string | undefined): string | undefined {
  const media = pickMedia(
    content.filter((candidate) => isJsonMediaType(candidate.mediaType)),
    accept,
  );
  if (!media) return undefined;
  const essence = essenceOf(media.mediaType);
  return essence === 'application/json' || essence.includes('*') ? undefined : essence;
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
