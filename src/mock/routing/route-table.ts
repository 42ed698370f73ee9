import type { Context } from 'koa';
import { ProblemError } from '../../core/problem.js';
import { shorten } from '../../core/text.js';

/** True when `path` lies under `prefix` (case-insensitive, as the mock's router matches). */
export function isUnder(path: string, prefix: string): boolean {
  const lower = path.toLowerCase();
  const base = prefix.toLowerCase();
  return base === '' || lower === base || lower.startsWith(`${base}/`);
}

/** `segment` percent-decoded, or as it is when it does not decode. */
function decodedSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/**
 * What follows `prefix` in `path` ('' or `/…`), or undefined when `path` is not under it. The
 * prefix (a document's base path, decoded: `/<b>x</b>/v1`, `/café`) is compared segment by segment
 * with the path's segments decoded, so it matches whether a client sent it percent-encoded (as
 * browsers and fetch do) or raw (as curl does); the rest is returned as sent.
 */
export function pathUnder(path: string, prefix: string): string | undefined {
  if (isUnder(path, prefix)) return path.slice(prefix.length);
  const wanted = prefix.split('/');
  const segments = path.split('/');
  if (segments.length < wanted.length) return undefined;
  for (let index = 1; index < wanted.length; index += 1)
    if (decodedSegment(segments[index]!).toLowerCase() !== wanted[index]!.toLowerCase()) return undefined;
  const rest = segments.slice(wanted.length);
  return rest.length === 0 ? '' : `/${rest.join('/')}`;
}

/**
 * A request under the API's prefix that no operation takes: `405` with `Allow` when its path is
 * documented (`OPTIONS` answers 204 with `Allow`), `404` otherwise, both as `Error` bodies.
 * `methods` are the documented methods of the most concrete path it matched.
 */
export function unmatched(ctx: Context, methods: Iterable<string> | undefined): void {
  if (!methods) throw new ProblemError(404, 'not_found', `No operation at ${ctx.method} ${shorten(ctx.path)}`);
  const allow = [...methods].flatMap((method) => (method === 'GET' ? ['GET', 'HEAD'] : [method]));
  allow.push('OPTIONS');
  return answerUnmatched(ctx, [...new Set(allow)].join(', '));
}

function answerUnmatched(ctx: Context, allow: string): void {
  if (ctx.method === 'OPTIONS') {
    ctx.status = 204;
    ctx.set('Allow', allow);
    return;
  }
  throw new ProblemError(
    405,
    'method_not_allowed',
    `${ctx.method} is not allowed on ${shorten(ctx.path)}; allowed: ${allow}`,
    { Allow: allow },
  );
}
