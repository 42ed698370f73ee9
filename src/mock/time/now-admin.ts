import { Router } from '../commonjs.js';
import type { Context } from 'koa';
import { readInstant } from '../../core/instant.js';
import { ProblemError } from '../../core/problem.js';
import { ADMIN_PREFIX, requireAdmin } from '../admin/admin-routes.js';
import { readJsonBody } from '../request/read-body.js';
import { send } from '../routing/spec-router.js';
import type { VirtualNow } from './virtual-now.js';
import { refuseOtherMethods } from '../admin/admin-methods.js';

function readNowBody(value: unknown): number {
  const usage = 'Now body must be {"now": "2030-12-06"} (a date, or a date-time with a zone)';
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new ProblemError(400, 'invalid_body', usage);
  const { now, ...rest } = value as Record<string, unknown>;
  const extra = Object.keys(rest)[0];
  if (extra !== undefined)
    throw new ProblemError(400, 'invalid_body', `Now body: /${extra.slice(0, 40)} is not allowed (fields: now)`);
  if (now === undefined)
    throw new ProblemError(400, 'invalid_body', 'Now body: /now: is required, such as {"now": "2030-12-06"}');
  const instant = readInstant(now);
  if (!instant.ok) throw new ProblemError(400, 'invalid_body', `Now body: /now: ${instant.reason}`);
  return instant.ms;
}

/** `GET/PUT/DELETE /__kennel/now`: the mock's virtual "now" (the real clock after a DELETE). */
export function nowAdminRouter(clock: VirtualNow, adminToken: string | undefined, maxBodyBytes: number): Router {
  const router = new Router({ prefix: ADMIN_PREFIX });
  const admin = requireAdmin(adminToken);
  const answer = (ctx: Context) =>
    send(ctx, {
      status: 200,
      json: JSON.stringify({ now: new Date(clock.now()).toISOString(), virtual: clock.virtual }),
    });
  router.get('/now', admin, answer);
  router.put('/now', admin, async (ctx) => {
    clock.set(readNowBody((await readJsonBody(ctx.req, maxBodyBytes)).value));
    answer(ctx);
  });
  router.delete('/now', admin, (ctx) => {
    clock.useRealClock();
    answer(ctx);
  });
  return refuseOtherMethods(router);
}
