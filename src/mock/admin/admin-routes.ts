import { documentInfo } from '../../openapi/document-info.js';
import { Router } from '../commonjs.js';
import type { Context, Middleware } from 'koa';
import { ProblemError } from '../../core/problem.js';
import type { LoadedDocument } from '../../openapi/load.js';
import type { Store } from '../../store/store-types.js';
import { bearerKey } from '../request/auth.js';
import type { MockConfig } from '../config.js';
import type { Journal } from './journal.js';
import { readJsonBody } from '../request/read-body.js';
import { send } from '../routing/spec-router.js';
import { resetScope } from '../tenancy.js';
import { queryOf } from '../request/query.js';
import { refuseOtherMethods } from './admin-methods.js';

/** Where the admin API lives: outside the API's base path, so it can never collide with a spec route. */
export const ADMIN_PREFIX = '/__kennel';

interface AdminDependencies {
  document: LoadedDocument;
  config: MockConfig;
  store: Store;
  journal: Journal;
}

function sendJson(ctx: Context, status: number, body: unknown): void {
  send(ctx, { status, json: JSON.stringify(body) });
}

/** Lets a request through only with the admin token, when one is configured. */
export function requireAdmin(token: string | undefined): Middleware {
  if (!token) return (_ctx, next) => next();
  const tokens = new Set([token]);
  return (ctx, next) => {
    bearerKey(ctx.get('authorization'), tokens);
    return next();
  };
}

interface ResetRequest {
  seed?: number;
  apiKey?: string;
}

/** Reads `{seed?, apiKey?}`; the seed re-seeds every tenant, so it cannot be combined with one tenant. */
function parseReset(value: unknown): ResetRequest {
  if (value === undefined) return {};
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new ProblemError(
      400,
      'invalid_body',
      'Reset body must be a JSON object: {"seed"?: integer, "apiKey"?: string}',
    );
  const { seed, apiKey, ...rest } = value as Record<string, unknown>;
  const unknown = Object.keys(rest);
  if (unknown.length > 0)
    throw new ProblemError(400, 'invalid_body', `Reset body: /${unknown[0]} is not allowed (fields: seed, apiKey)`);
  if (seed !== undefined && (typeof seed !== 'number' || !Number.isSafeInteger(seed) || seed < 0))
    throw new ProblemError(400, 'invalid_body', 'Reset body: /seed must be a non-negative integer');
  if (apiKey !== undefined && (typeof apiKey !== 'string' || apiKey === ''))
    throw new ProblemError(400, 'invalid_body', 'Reset body: /apiKey must be a non-empty string');
  if (seed !== undefined && apiKey !== undefined)
    throw new ProblemError(
      400,
      'invalid_body',
      'Reset body: /seed applies to every tenant and cannot be combined with /apiKey',
    );
  return { seed: seed, apiKey: apiKey };
}

function parseLimit(raw: unknown, max: number): number {
  if (raw === undefined) return max;
  if (typeof raw !== 'string' || !/^\d+$/.test(raw) || Number(raw) < 1)
    throw new ProblemError(400, 'invalid_parameter', 'query parameter "limit" must be a positive integer');
  return Math.min(Number(raw), max);
}

/**
 * Health, reset and the request journal, under /__kennel. With an admin token, everything but
 * health requires it (container health probes carry no credentials).
 */
export function adminRouter({ document, config, store, journal }: AdminDependencies): Router {
  const router = new Router({ prefix: ADMIN_PREFIX });
  const admin = requireAdmin(config.adminToken);
  router.get('/health', async (ctx) => {
    const { seed, tenants, kind } = await store.status();
    sendJson(ctx, 200, {
      status: 'ok',
      spec: documentInfo(document.document),
      seed,
      tenants,
      store: kind,
    });
  });
  router.post('/reset', admin, async (ctx) => {
    const request = parseReset((await readJsonBody(ctx.req, config.maxBodyBytes)).value);
    await store.reset(resetScope(request, config.tenancy));
    sendJson(ctx, 200, {
      status: 'reset',
      seed: (await store.status()).seed,
      scope: request.apiKey !== undefined ? 'tenant' : 'all',
    });
  });
  router.get('/journal', admin, (ctx) => {
    sendJson(ctx, 200, { entries: journal.recent(parseLimit(queryOf(ctx).limit, config.journalSize)) });
  });
  router.delete('/journal', admin, (ctx) => {
    journal.clear();
    ctx.status = 204;
  });
  return refuseOtherMethods(router);
}
