import type { Middleware } from 'koa';
import { ProblemError } from '../core/problem.js';
import type { CompiledOperation } from './compiled-operation.js';

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

/**
 * Knows which methods every documented path allows, to answer what the router did not match:
 * `405` with `Allow` for a known path, `404` otherwise, both as `Error` bodies.
 */
export function routeTable(compiled: readonly CompiledOperation[], basePath: string): { fallthrough: Middleware } {
  const byPath = new Map<string, PathMethods>();
  for (const { operation } of compiled) {
    const key = operation.path.replace(/\{[^}]+\}/g, '{}');
    const entry = byPath.get(key) ?? { pattern: patternOf(basePath + operation.path), methods: new Set<string>() };
    entry.methods.add(operation.method.toUpperCase());
    if (operation.method === 'get') entry.methods.add('HEAD');
    byPath.set(key, entry);
  }
  const entries = [...byPath.values()];

  const fallthrough: Middleware = async (ctx) => {
    const match = entries.find((entry) => entry.pattern.test(ctx.path));
    if (!match) {
      const hint = basePath && !ctx.path.toLowerCase().startsWith(basePath.toLowerCase()) ? ` (the API lives under ${basePath})` : '';
      throw new ProblemError(404, 'not_found', `No operation at ${ctx.method} ${ctx.path}${hint}`);
    }
    const allow = [...match.methods, 'OPTIONS'].join(', ');
    if (ctx.method === 'OPTIONS') {
      ctx.status = 204;
      ctx.set('Allow', allow);
      return;
    }
    throw new ProblemError(405, 'method_not_allowed', `${ctx.method} is not allowed on ${ctx.path}; allowed: ${allow}`, { Allow: allow });
  };
  return { fallthrough };
}
