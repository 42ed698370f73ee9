import type { JsonSchema } from '../../openapi/openapi-types.js';
import { objectShape, typesOf } from '../../openapi/schema-shape.js';

/** Where a response schema documents a link to another resource: a path into the body and the link's name. */
export interface BodyLinkPath {
  /** Property names from the root; `*` stands for every item of an array. */
  path: string[];
  /** `self`, `origin`: the name the link goes by (a HAL link's relation, not `href`). */
  name: string;
  /** How many trailing names of `path` are the link's own (`links`, `self`): the rest leads to the object it belongs to. */
  tail: number;
}

const URI_FORMATS = new Set(['uri', 'uri-reference', 'iri', 'iri-reference']);
const LINK_CONTAINERS = new Set(['links', '_links']);
/** Paging links are the pagination's to follow, not a resource's. */
const PAGING = new Set(['next', 'prev', 'previous', 'first', 'last']);
const MAX_DEPTH = 6;

function isUri(schema: JsonSchema | undefined): boolean {
  return (
    typeof schema === 'object' &&
    typesOf(schema).includes('string') &&
    typeof schema.format === 'string' &&
    URI_FORMATS.has(schema.format)
  );
}

/** `self`, `links.origin`, `_links.self.href`: a uri property that names a link, with the link's name. */
function linkName(path: readonly string[]): { name: string; tail: number } | undefined {
  const last = path.at(-1)!;
  const parent = path.at(-2);
  const grandparent = path.at(-3);
  if (last === 'href' && parent !== undefined && grandparent !== undefined && LINK_CONTAINERS.has(grandparent))
    return { name: parent, tail: 3 };
  if (parent !== undefined && LINK_CONTAINERS.has(parent)) return { name: last, tail: 2 };
  return last === 'self' ? { name: last, tail: 1 } : undefined;
}

function visit(schema: JsonSchema | undefined, path: string[], depth: number, out: BodyLinkPath[]): void {
  if (typeof schema !== 'object' || depth > MAX_DEPTH) return;
  if (typesOf(schema).includes('array')) {
    visit(schema.items as JsonSchema | undefined, [...path, '*'], depth + 1, out);
    return;
  }
  for (const [name, property] of Object.entries(objectShape(schema).properties)) {
    const at = [...path, name];
    if (isUri(property)) {
      const link = linkName(at);
      if (link !== undefined && !PAGING.has(link.name)) out.push({ path: at, ...link });
    } else visit(property, at, depth + 1, out);
  }
}

/** The links a (dereferenced) response schema documents, outside pagination. */
export function bodyLinkPaths(schema: JsonSchema | undefined): BodyLinkPath[] {
  const out: BodyLinkPath[] = [];
  visit(schema, [], 0, out);
  return out;
}

/** The links at `link.path` in a body (every item for `*`), each with the object it belongs to. */
export function linkValues(body: unknown, link: BodyLinkPath): { url: string; owner: unknown }[] {
  const found: { url: string; owner: unknown }[] = [];
  const ownerAt = link.path.length - link.tail;
  const walk = (value: unknown, index: number, owner: unknown): void => {
    const current = index === ownerAt ? value : owner;
    if (index === link.path.length) {
      if (typeof value === 'string') found.push({ url: value, owner: current });
      return;
    }
    const key = link.path[index]!;
    if (key === '*') {
      if (Array.isArray(value)) for (const item of value) walk(item, index + 1, current);
      return;
    }
    if (value === null || typeof value !== 'object' || Array.isArray(value) || !Object.hasOwn(value, key)) return;
    walk((value as Record<string, unknown>)[key], index + 1, current);
  };
  walk(body, 0, undefined);
  return found;
}
