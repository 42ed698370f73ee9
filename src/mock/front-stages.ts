import type { Context, Middleware } from 'koa';
import cors from '@koa/cors';
import { ADMIN_PREFIX } from './admin/admin-routes.js';
import { framingProblem } from './request/framing.js';
import { isUnder } from './routing/route-table.js';

const EXPOSED_HEADERS = [
  'Deprecation',
  'Sunset',
  'Link',
  'Location',
  'WWW-Authenticate',
  'Preference-Applied',
  'Allow',
];

/** CORS as the front stages apply it: to the API always, to /__kennel only when a token protects it. */
export interface CorsStage {
  onAdmin: boolean;
  answer: Middleware;
}

/**
 * What every request passes before the API, as one layer rather than four: framing
 * (framing.ts), then under /__kennel the host and CSRF guard (admin-guard.ts), CORS where it
 * applies, and under /__kennel the admin routers. The admin API, the docs, the dashboard and the
 * world all live there: one prefix test per request instead of every router matching its routes
 * against every API request.
 */
export function frontStages(stages: {
  guard: (ctx: Context) => void;
  cors: CorsStage | undefined;
  admin: Middleware;
}): Middleware {
  const { guard, cors, admin } = stages;
  return (ctx, next) => {
    const problem = framingProblem(ctx.req);
    if (problem) throw problem;
    const path = ctx.path;
    const underAdmin = path[1] === '_' && isUnder(path, ADMIN_PREFIX);
    if (underAdmin) guard(ctx);
    const rest = underAdmin ? () => admin(ctx, next) as Promise<void> : next;
    return cors && (cors.onAdmin || !underAdmin) ? (cors.answer(ctx, rest) as Promise<void>) : rest();
  };
}

/**
 * CORS for the API. The admin API (journal, reset, the domain world) gets none unless a token
 * protects it: otherwise any web page a developer opens could read the journal or drive the world.
 */
export function corsOutsideAdmin(adminProtected: boolean): CorsStage {
  const allow = cors({ exposeHeaders: EXPOSED_HEADERS, keepHeadersOnError: true });
  const answer: Middleware = (ctx, next) => {
    if (ctx.req.headers.origin !== undefined || ctx.method === 'OPTIONS') return allow(ctx, next) as Promise<void>;
    // Not a CORS request (no Origin): the Fetch standard puts it out of scope, so no
    // Access-Control-* headers; only `Vary: Origin`, so that a shared cache never hands this
    // answer to a browser's request, which carries an Origin.
    if (ctx.res.hasHeader('vary')) ctx.vary('Origin');
    else ctx.res.setHeader('Vary', 'Origin');
    return next();
  };
  return { onAdmin: adminProtected, answer };
}
