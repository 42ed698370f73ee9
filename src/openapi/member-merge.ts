import { jsonMediaType, type Operation } from './operations.js';

type Item = Record<string, unknown>;

const isItem = (value: unknown): value is Item => value !== null && typeof value === 'object' && !Array.isArray(value);

/**
 * True when the operation's PATCH body merges nested objects member by member: JSON Merge Patch
 * (RFC 7396) and JSON:API (v1.1: attributes and relationships left out keep their values).
 */
export function mergesMembers(operation: Operation): boolean {
  const documented = operation.requestBody && jsonMediaType(operation.requestBody.content)?.mediaType;
  const essence = documented?.split(';')[0]!.trim().toLowerCase();
  return essence === 'application/merge-patch+json' || essence === 'application/vnd.api+json';
}

/** `written` with `patch` merged in, nested objects member by member (what a merging PATCH leaves). */
export function mergedInto(written: Readonly<Item>, patch: Readonly<Item>): Item {
  const merged: Item = { ...written };
  for (const [name, value] of Object.entries(patch))
    merged[name] = isItem(value) && isItem(written[name]) ? mergedInto(written[name], value) : value;
  return merged;
}
