/**
 * The request target a proxied request gets upstream: its path with the dot segments resolved
 * (RFC 3986 §5.2.4), never above the client's root, so never outside the `--proxy` base path.
 * A spelling whose meaning depends on how the upstream decodes it is refused rather than guessed.
 */
export type ConfinedTarget = { ok: true; path: string; query: string } | { ok: false; reason: string };

/** The dot segments as the WHATWG URL parser (and most servers) read them, case-insensitively. */
const SINGLE_DOT = new Set(['.', '%2e']);
const DOUBLE_DOT = new Set(['..', '.%2e', '%2e.', '%2e%2e']);

/** Most rounds of percent-decoding tried when looking for a hidden dot segment (`%252e` is two). */
const DECODING_ROUNDS = 4;

/** `text` percent-decoded until it stops changing (or cannot be decoded), at most DECODING_ROUNDS times. */
function fullyDecoded(text: string): string {
  let current = text;
  for (let round = 0; round < DECODING_ROUNDS && current.includes('%'); round += 1) {
    let next: string;
    try {
      next = decodeURIComponent(current);
    } catch {
      return current;
    }
    if (next === current) break;
    current = next;
  }
  return current;
}

/** A dot segment once decoded, `;parameters` dropped (`..;x` is `..` to Tomcat and others). */
function isDotLike(part: string): boolean {
  const name = part.split(';', 1)[0]!;
  return name === '.' || name === '..';
}

/** A segment that some upstream could read as a dot segment although it is not one as written. */
function hidesDotSegment(segment: string): boolean {
  const decoded = fullyDecoded(segment);
  return decoded.split(/[\\/]/).some(isDotLike);
}

/**
 * Resolves the dot segments of `requestTarget`'s path and keeps its query as sent. Refused: a
 * path that climbs above its root, a segment that is a dot segment only once decoded or with
 * its parameters dropped (`%252e%252e`, `..%2f`, `..;`), and control characters or spaces (which
 * URL parsers drop or re-encode). Backslashes separate segments, as URL parsers read them.
 */
export function confinedTarget(requestTarget: string): ConfinedTarget {
  const withoutFragment = requestTarget.split('#', 1)[0]!;
  const queryAt = withoutFragment.indexOf('?');
  const rawPath = queryAt === -1 ? withoutFragment : withoutFragment.slice(0, queryAt);
  const query = queryAt === -1 ? '' : withoutFragment.slice(queryAt);
  if (/[\x00-\x20\x7f]/.test(rawPath)) return { ok: false, reason: 'holds a control character or a space' };
  const segments = (rawPath.startsWith('/') ? rawPath.slice(1) : rawPath).split(/[\\/]/);
  const kept: string[] = [];
  for (const [index, segment] of segments.entries()) {
    const lower = segment.toLowerCase();
    const last = index === segments.length - 1;
    if (SINGLE_DOT.has(lower)) {
      if (last) kept.push('');
      continue;
    }
    if (DOUBLE_DOT.has(lower)) {
      if (kept.length === 0) return { ok: false, reason: 'climbs above the root with ".."' };
      kept.pop();
      if (last) kept.push('');
      continue;
    }
    if (hidesDotSegment(segment))
      return { ok: false, reason: `has a segment an upstream may read as "." or ".." (${segment.slice(0, 40)})` };
    kept.push(segment);
  }
  return { ok: true, path: `/${kept.join('/')}`, query };
}
