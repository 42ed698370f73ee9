import type { Middleware } from 'koa';
import { ProblemError } from '../core/problem.js';
import type { CompiledOperation } from './compiled-operation.js';
import { shorten } from '../core/text.js';

interface PathMethods {
  pattern: RegExp;
  methods: Set<string>;
}

function patternOf(path: string): RegExp {
  const source = path
    .split(/\{[^}]+\}/)
    .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join('[^/]+');
  return new RegExp(`^${source}/?$`, 'i');
}

/** True when `path` lies under `prefix` (case-insensitive, as the router matches). */
export function isUnder(path: string, prefix: string): boolean {
  const lower = path.toLowerCase();
  const base = prefix.toLowerCase();
  return base === '' || lower === base || lower.startsWith(`${base}/`);
}

/**
 * For requests under `prefix` that no route matched: `405` with `Allow` for a documented path,
 * `404` otherwise, both as `Error` bodies. Requests outside `prefix` pass on.
 */
export function routeTable(compiled: readonly CompiledOperation[], prefix: string): Middleware {
  const byPath = new Map<string, PathMethods>();
  for (const { operation } of compiled) {
    const key = operation.path.replace(/\{[^}]+\}/g, '{}');
    const entry = byPath.get(key) ?? { pattern: patternOf(prefix + operation.path), methods: new Set<string>() };
    entry.methods.add(operation.method.toUpperCase());
    if (operation.method === 'get') entry.methods.add('HEAD');
    byPath.set(key, entry);
  }
  const entries = [...byPath.values()];
  return async (ctx, next) => {
    if (!isUnder(ctx.path, prefix)) return next();
    const match = entries.find((entry) => entry.pattern.test(ctx.path));
    if (!match) throw new ProblemError(404, 'not_found', `No operation at ${ctx.method} ${shorten(ctx.path)}`);
    const allow = [...match.methods, 'OPTIONS'].join(', ');
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
  };
}
