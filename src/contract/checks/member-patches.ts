import type { JsonSchema } from '../../openapi/openapi-types.js';
import { objectShape } from '../../openapi/schema-shape.js';
import { fits } from '../../openapi/value-fits.js';

export { mergedInto, mergesMembers } from '../../openapi/member-merge.js';
import { keptExactly } from './fidelity-values.js';
import { sameJson } from './same-json.js';

type Item = Record<string, unknown>;

const isItem = (value: unknown): value is Item => value !== null && typeof value === 'object' && !Array.isArray(value);

/**
 * A nested object narrowed to one member that changes what was written (text first), so that a
 * PATCH of it says which others must stay; any other value as it is.
 */
export function oneChangedMember(value: unknown, written: unknown): unknown {
  if (!isItem(value)) return value;
  const before = isItem(written) ? written : {};
  const changes = Object.entries(value).filter(([name, member]) => !sameJson(member, before[name]));
  const [name, member] = changes.find(([, candidate]) => typeof candidate === 'string') ?? changes[0] ?? [];
  return name === undefined ? value : { [name]: member };
}

/** A value written reads back: objects by the members written (a server may add its own), others exactly. */
export function keptWithin(sent: unknown, got: unknown): boolean {
  if (isItem(sent) && isItem(got)) return Object.entries(sent).every(([name, value]) => keptWithin(value, got[name]));
  return keptExactly(sent, got);
}

/**
 * Some members of an object its schema describes, each fitting its property: what a client writes
 * of an object whose other members are the server's (`created_at`) or kept from before.
 */
export function holdsMembers(value: unknown, schema: JsonSchema | undefined): boolean {
  const { properties } = objectShape(schema);
  if (!isItem(value) || Object.keys(properties).length === 0) return false;
  return Object.entries(value).every(([name, member]) => name in properties && fits(member, properties[name]));
}
