import type { Resource } from '../../openapi/resource-model.js';
import { objectShape, primaryType } from '../../openapi/schema-shape.js';

/** An item member named as a parent's path parameter (`board_id` of `/boards/{board_id}/cards`), and whether it is a number. */
export interface ParentMember {
  name: string;
  numeric: boolean;
}

export function parentMembersOf(resource: Resource): ParentMember[] {
  const declared = objectShape(resource.itemSchema).properties;
  // Only a scalar member can hold a path's value (`board: {id}` is left as the document shapes it).
  return resource.parentParameters
    .filter((name) => name in declared && ['string', 'integer', 'number'].includes(primaryType(declared[name]) ?? ''))
    .map((name) => ({ name, numeric: primaryType(declared[name]) !== 'string' }));
}

/**
 * The item's members that name its parents hold the path's values (a card made under board 7
 * has `board_id` 7, as kennel check expects of any deployment), unless the client sent them.
 */
export function withParents(
  body: Record<string, unknown>,
  path: Readonly<Record<string, unknown>>,
  members: readonly ParentMember[],
): Record<string, unknown> {
  if (members.length === 0) return body;
  const filled = { ...body };
  for (const { name, numeric } of members) {
    const value = path[name];
    if (filled[name] !== undefined || value === undefined) continue;
    filled[name] = numeric && /^-?\d+(\.\d+)?$/.test(String(value)) ? Number(value) : String(value);
  }
  return filled;
}
