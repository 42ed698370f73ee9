import { pointerOf } from './json-pointer.js';
import type { OpenApiDocument } from './openapi-types.js';

/** Something about a path key kennel reads in its own way, located by JSON pointer. */
export interface PathKeyNote {
  pointer: string;
  message: string;
}

/**
 * Path keys that hold a query (`/responses?beta=true`): OpenAPI has no word for them, but some
 * documents describe one path's variants that way. kennel serves the key at its path and prefers
 * it for requests that carry its query (src/mock/path-matcher.ts); the note says so.
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
