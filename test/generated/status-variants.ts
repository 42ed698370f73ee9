import type { Built, DocumentParts } from './document-parts.js';
import type { Draws } from './draws.js';
import { jsonResponse } from './responses.js';

// The `status-variants` feature: the other statuses real APIs answer writes with, and errors
// documented by range (`4XX`) and `default` rather than status by status.

/** A create's success: 201 with the item (always without the feature), 200 with it, or 201 with no body. */
export function createdResponse(
  parts: DocumentParts,
  draws: Draws,
  description: string,
  body: Built,
  extra: Record<string, unknown>,
): Record<string, unknown> {
  const variant = parts.uses('status-variants') ? draws.fork('create status').pick(['201', '200', 'empty']) : '201';
  if (variant === 'empty') {
    const { links: _links, ...rest } = extra;
    return { '201': { description, ...rest } };
  }
  return { [variant]: jsonResponse(parts, description, body, extra) };
}

/** A replace's or update's success: 200 with the item, or 204 with no body. */
export function writtenResponse(parts: DocumentParts, draws: Draws, description: string, body: Built) {
  if (parts.uses('status-variants') && draws.fork(`${description} status`).chance(0.4))
    return { '204': { description } };
  return { '200': jsonResponse(parts, description, body) };
}

/** A delete's success: 204, or 200 with the deleted item. */
export function deletedResponse(parts: DocumentParts, draws: Draws, body: Built) {
  if (parts.uses('status-variants') && draws.fork('delete status').chance(0.4))
    return { '200': jsonResponse(parts, 'The deleted item', body) };
  return { '204': { description: 'Deleted' } };
}

/** Error statuses as documented: each on its own, or (with the feature) 400 as `4XX` and a `default`. */
export function errorStatuses(parts: DocumentParts, draws: Draws, statuses: readonly string[]): string[] {
  if (!parts.uses('status-variants') || !draws.fork(`ranges ${statuses.join()}`).chance(0.5)) return [...statuses];
  return [...statuses.map((status) => (status === '400' ? '4XX' : status)), 'default'];
}
