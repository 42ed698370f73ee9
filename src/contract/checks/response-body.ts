import { essenceOf, isJsonMediaType } from '../../openapi/operations.js';
import { payloadOf } from '../prepare/payload.js';
import type { Exchange } from '../types.js';
import { isSuccess } from './response-status.js';

/** The media type the response declares (`application/xml`), lower case without parameters. */
export function declaredMediaType(exchange: Exchange): string | undefined {
  const header = exchange.response?.headers['content-type'];
  return header ? essenceOf(header) || undefined : undefined;
}

/**
 * True when the response says its body is not JSON (XML, text, an image): checks that judge JSON
 * leave it to content-type-conformance, which judges the media type against the document.
 */
export function declaresNonJson(exchange: Exchange): boolean {
  const type = declaredMediaType(exchange);
  return type !== undefined && !isJsonMediaType(type);
}

/**
 * What a client reads from the response: the parsed JSON body, with a success's documented
 * envelope or wrapper taken off (a list's items, a wrapped item); undefined when absent or not
 * JSON. Checks of the body as sent (its schema) read `response.json` itself.
 */
export function jsonBody(exchange: Exchange): unknown {
  const json = exchange.response?.json;
  if (!json?.ok) return undefined;
  return isSuccess(exchange) ? payloadOf(exchange.operation, json.value) : json.value;
}
