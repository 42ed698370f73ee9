import { Router } from '../commonjs.js';
import type { Context } from 'koa';
import { ProblemError } from '../../core/problem.js';
import { ADMIN_PREFIX, requireAdmin } from '../admin/admin-routes.js';
import { readJsonBody } from '../request/read-body.js';
import { send } from '../routing/spec-router.js';
import type { ChaosEngine } from './chaos-engine.js';
import { readChaosSettings, unmatchedRule } from './chaos-rules.js';
import { refuseOtherMethods } from '../admin/admin-methods.js';

interface ChaosAdminDependencies {
  engine: ChaosEngine;
  operationIds: readonly string[];
  adminToken: string | undefined;
  maxBodyBytes: number;
}

/**
 * `GET/PUT/DELETE /__kennel/chaos`: read, replace or clear the chaos table at run time (the admin
 * token, when set, is required). A PUT, even of the same table, starts its draws afresh.
 */
export function chaosAdminRouter({ engine, operationIds, adminToken, maxBodyBytes }: ChaosAdminDependencies): Router {
  const router = new Router({ prefix: ADMIN_PREFIX });
  const admin = requireAdmin(adminToken);
  const answer = (ctx: Context) => send(ctx, { status: 200, json: JSON.stringify(engine.settings) });
  router.get('/chaos', admin, answer);
  router.put('/chaos', admin, async (ctx) => {
    const { value, present } = await readJsonBody(ctx.req, maxBodyBytes);
    if (!present)
      throw new ProblemError(400, 'invalid_body', 'Chaos body: send a table {"seed"?: integer, "rules": [...]}');
    const read = readChaosSettings(value);
    if (!read.ok) throw new ProblemError(400, 'invalid_body', `Chaos body: ${read.pointer || '/'}: ${read.reason}`);
    const unmatched = unmatchedRule(read.settings, operationIds);
    if (unmatched) throw new ProblemError(400, 'invalid_body', `Chaos body: ${unmatched.pointer}: ${unmatched.reason}`);
    engine.replace(read.settings);
    answer(ctx);
  });
  router.delete('/chaos', admin, (ctx) => {
    engine.replace({ rules: [] });
    ctx.status = 204;
  });
  return refuseOtherMethods(router);
}
