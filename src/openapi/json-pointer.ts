/** RFC 6901 JSON pointers in URI-fragment form (`#/paths/~1pets/get`), as OpenAPI `$ref`s use them. */

/** Escapes one reference token (`/pets` → `~1pets`). */
export function escapeToken(token: string): string {
  return token.replaceAll('~', '~0').replaceAll('/', '~1');
}

/**
 * Escapes one token of a pointer into the document (URI-fragment form, which `tokensOf` decodes):
 * `~` and `/` as RFC 6901 says, and `%` as `%25`, so that a path key such as `/caf%C3%A9` reads back
 * as written rather than as `/café`.
 */
export function fragmentToken(token: string): string {
  return escapeToken(token).replaceAll('%', '%25');
}

/** Builds `#/a/b` from tokens. */
export function pointerOf(tokens: readonly string[]): string {
  return '#' + tokens.map((token) => '/' + fragmentToken(token)).join('');
}

/** Splits `#/a/b` (or `/a/b`) into tokens; throws on a pointer that is not local. */
export function tokensOf(pointer: string): string[] {
  const path = pointer.startsWith('#') ? pointer.slice(1) : pointer;
  if (path === '') return [];
  if (!path.startsWith('/')) throw new Error(`not a local JSON pointer: ${pointer}`);
  return path
    .slice(1)
    .split('/')
    .map((token) => decodeURIComponent(token).replaceAll('~1', '/').replaceAll('~0', '~'));
}

/** Reads the value at `pointer` inside `root`, or undefined when a token is missing. */
export function valueAt(root: unknown, pointer: string): unknown {
  let node: unknown = root;
  for (const token of tokensOf(pointer)) {
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<string, unknown>)[token];
  }
  return node;
}
