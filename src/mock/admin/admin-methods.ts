import type { Router } from '../commonjs.js';
import { ProblemError } from '../../core/problem.js';

/** The order `Allow` lists methods in. */
const METHOD_ORDER = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

function allowHeader(methods: readonly string[]): string {
  const rank = (method: string) => (METHOD_ORDER.includes(method) ? METHOD_ORDER.indexOf(method) : METHOD_ORDER.length);
  return [...new Set(methods)].sort((a, b) => rank(a) - rank(b)).join(', ');
}

/**
 * Gives every path of an admin router an answer for the methods it does not take: 405 with
 * `Allow` and an Error body (a 404 would say the route does not exist), or 204 with `Allow` to a
 * plain OPTIONS, as the API's own routes do (route-table.ts). Call it once all the router's routes are registered.
 */
export function refuseOtherMethods(router: Router): Router {
  const prefix = router.opts.prefix ?? '';
  const byPath = new Map<string, string[]>();
  for (const layer of router.stack)
    if (typeof layer.path === 'string') byPath.set(layer.path, [...(byPath.get(layer.path) ?? []), ...layer.methods]);
  for (const [path, methods] of byPath) {
    const allow = allowHeader([...methods, 'OPTIONS']);
    router.all(path.slice(prefix.length), (ctx) => {
      if (ctx.method === 'OPTIONS') {
        ctx.set('Allow', allow);
        ctx.status = 204;
        return;
      }
      throw new ProblemError(405, 'method_not_allowed', `${ctx.method} is not allowed on ${path}; allowed: ${allow}`, {
        Allow: allow,
      });
    });
  }
  return router;
}
