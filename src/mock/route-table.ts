import type { Context } from 'koa';
import { ProblemError } from '../core/problem.js';
import { shorten } from '../core/text.js';

/** True when `path` lies under `prefix` (case-insensitive, as the mock's router matches). */
export function isUnder(path: string, prefix: string): boolean {
  const lower = path.toLowerCase();
  const base = prefix.toLowerCase();
  return base === '' || lower === base || lower.startsWith(`${base}/`);
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
