// Entity-tag matching for If-Match and If-None-Match (RFC 9110 §13.1): `*` or a list of tags.

/** True when the header is `*` or names `etag` (weak comparison for the W/ prefix). */
export function matchesAny(header: string | string[] | undefined, etag: string): boolean {
  if (header === undefined) return false;
  const text = Array.isArray(header) ? header.join(',') : header;
  if (text.trim() === '*') return true;
  const tags = text.match(/(?:W\/)?"[^"]*"/g) ?? [];
  return tags.some((tag) => tag.replace(/^W\//, '') === etag);
}
