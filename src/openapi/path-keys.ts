import { targetOf } from './dereference.js';
import { pointerOf } from './json-pointer.js';
import type { OpenApiDocument } from './openapi-types.js';
import { HTTP_METHODS } from './operations.js';

/** Something about a path key kennel reads in its own way, located by JSON pointer. */
export interface PathKeyNote {
  pointer: string;
  message: string;
}

/**
 * Path keys that hold a query (`/responses?beta=true`): OpenAPI has no word for them, but some
 * documents describe one path's variants that way. kennel serves the key at its path and prefers
 * it for requests that carry its query (src/mock/routing/path-matcher.ts); the note says so.
 */
export function pathKeyNotes(document: OpenApiDocument): PathKeyNote[] {
  return Object.keys(document.paths ?? {}).flatMap((key) => {
    const at = key.indexOf('?');
    if (at < 0) return [];
    const path = key.slice(0, at) || '/';
    return [
      {
        pointer: pointerOf(['paths', key]),
        message: `path key "${key}" holds a query; kennel serves it at ${path} and prefers it when a request carries ${key.slice(at + 1)}`,
      },
    ];
  });
}

/** The path parameters a path item and its operations declare (`$ref`s to components followed). */
function declaredPathParameters(document: OpenApiDocument, item: Record<string, unknown>): Set<string> {
  const names = new Set<string>();
  const lists = [
    item.parameters,
    ...HTTP_METHODS.map((method) => (item[method] as { parameters?: unknown } | undefined)?.parameters),
  ];
  for (const list of lists)
    for (const entry of Array.isArray(list) ? list : []) {
      const parameter = resolveParameter(document, entry);
      if (parameter?.in === 'path' && typeof parameter.name === 'string') names.add(parameter.name);
    }
  return names;
}

/** A parameter object, its local `$ref` followed (the shared resolver: chains, escaped names). */
function resolveParameter(document: OpenApiDocument, entry: unknown): { in?: unknown; name?: unknown } | undefined {
  const ref = (entry as { $ref?: unknown } | null)?.$ref;
  const parameter = typeof ref === 'string' ? targetOf(document, ref) : entry;
  return parameter !== null && typeof parameter === 'object' ? parameter : undefined;
}

const COLON_SEGMENT = /^:([A-Za-z_][\w-]*)$/;

/**
 * Path keys written as Express and Hono routes (`/todos/:id`): OpenAPI templates paths with
 * braces, but a whole segment `:id` plainly means `{id}` (literal paths never start a segment with
 * a colon; Google's `/things:batchGet` keeps its colon inside one). The key is read as
 * `/todos/{id}` (the document object is changed in place); a parameter no operation declares is
 * declared on the path item as a required string, and a note says so. Returns the notes and, for
 * locating, each new key's old one.
 */
export function readColonParameters(document: OpenApiDocument): { notes: PathKeyNote[]; renamed: Map<string, string> } {
  const notes: PathKeyNote[] = [];
  const renamed = new Map<string, string>();
  const paths = (document.paths ?? {}) as Record<string, unknown>;
  for (const key of Object.keys(paths)) {
    const item = paths[key];
    if (!key.includes('/:') || item === null || typeof item !== 'object') continue;
    const names = key.split('/').flatMap((segment) => COLON_SEGMENT.exec(segment)?.[1] ?? []);
    if (names.length === 0) continue;
    const templated = key.replace(/\/:([A-Za-z_][\w-]*)(?=\/|$)/g, '/{$1}');
    const pointer = pointerOf(['paths', key]);
    if (templated in paths) {
      notes.push({
        pointer,
        message: `path key "${key}" looks like ${templated}, which the document also has: kept as literal text`,
      });
      continue;
    }
    const declared = declaredPathParameters(document, item as Record<string, unknown>);
    const undeclared = names.filter((name) => !declared.has(name));
    const pathItem = item as { parameters?: unknown[] };
    if (undeclared.length > 0)
      pathItem.parameters = [
        ...(Array.isArray(pathItem.parameters) ? pathItem.parameters : []),
        ...undeclared.map((name) => ({ name, in: 'path', required: true, schema: { type: 'string' } })),
      ];
    paths[templated] = item;
    delete paths[key];
    renamed.set(templated, key);
    const declaring = undeclared.length > 0 ? ` (${undeclared.join(', ')} declared as required text)` : '';
    notes.push({
      pointer,
      message: `path key "${key}" writes its parameters as :name; kennel reads it as ${templated}${declaring}`,
    });
  }
  return { notes, renamed };
}

/** A pointer under a path key `readColonParameters` renamed, turned back into the source's own. */
export function sourcePointer(pointer: string, renamed: ReadonlyMap<string, string>): string {
  for (const [templated, written] of renamed) {
    const prefix = pointerOf(['paths', templated]);
    const bare = prefix.slice(1);
    for (const form of [prefix, bare])
      if (pointer === form || pointer.startsWith(`${form}/`))
        return (
          (form === bare ? pointerOf(['paths', written]).slice(1) : pointerOf(['paths', written])) +
          pointer.slice(form.length)
        );
  }
  return pointer;
}
