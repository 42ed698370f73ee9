import Koa, { type Context, type Middleware } from 'koa';
import Router from '@koa/router';
import cors from '@koa/cors';
import type { Logger } from 'pino';
import { ProblemError } from '../core/problem.js';
import type { LoadedSpec } from '../spec/load.js';
import { SchemaValidators } from '../spec/validators.js';
import type { Pet } from '../store/pet.js';
import { PetStore } from '../store/pet-store.js';
import { adminRouter } from './admin-routes.js';
import { authenticate, type CredentialSource } from './auth.js';
import { cannedResponse } from './canned.js';
import { compileOperation, type CompiledOperation } from './compiled-operation.js';
import { acceptedKeys, type MockConfig } from './config.js';
import { Journal } from './journal.js';
import { JSON_CONTENT_TYPE, type MockResponse } from './mock-response.js';
import { PET_HANDLERS, type StatefulHandler } from './pet-handlers.js';
import { appliedPreferences, forcesCannedResponse, parsePrefer } from './prefer.js';
import { PrismFallback } from './prism-fallback.js';
import { errorJson, toProblem } from './problems.js';
import { readBody, readParameters } from './request-input.js';
import { routeTable } from './route-table.js';
import { tenantOf } from './tenancy.js';

export interface MockDependencies {
  spec: LoadedSpec;
  config: MockConfig;
  /** The seeded pets for a seed (fixtures + faker). */
  seedPets: (seed: number) => Pet[];
  logger: Logger;
}

export interface MockApp {
  app: Koa;
  store: PetStore;
  journal: Journal;
}

const EXPOSED_HEADERS = ['Deprecation', 'Sunset', 'Link', 'Location', 'WWW-Authenticate', 'Preference-Applied', 'Allow'];

/** Builds the Koa app that serves `spec`: routes, validation and responses all derive from the document. */
export function createMockApp({ spec, config, seedPets, logger }: MockDependencies): MockApp {
  const validators = new SchemaValidators(spec.document);
  const compiled = spec.operations.map((operation) => compileOperation(spec, validators, operation));
  const store = new PetStore({ seedPets, seed: config.seed, capacity: config.maxPetsPerTenant });
  const journal = new Journal(config.journalSize);
  const app = new Koa();
  app.use(observe(logger, journal));
  if (config.cors) app.use(cors({ exposeHeaders: EXPOSED_HEADERS, keepHeadersOnError: true }));
  const admin = adminRouter({ spec, config, store, journal });
  app.use(admin.routes());
  app.use(apiRouter(compiled, { spec, config, store }).routes());
  app.use(routeTable(compiled, spec.basePath).fallthrough);
  return { app, store, journal };
}

interface ApiContext {
  spec: LoadedSpec;
  config: MockConfig;
  store: PetStore;
}

function apiRouter(compiled: readonly CompiledOperation[], context: ApiContext): Router {
  const router = new Router(context.spec.basePath ? { prefix: context.spec.basePath } : {});
  const keys: ReadonlySet<string> = new Set(acceptedKeys(context.config));
  const fallback = new PrismFallback(context.spec, context.config.seed);
  for (const operation of compiled) {
    const candidate = operation.operation.operationId ? PET_HANDLERS[operation.operation.operationId] : undefined;
    const stateful = !context.config.stateless && candidate?.fits(operation.operation) ? candidate : undefined;
    router.register(operation.routePath, [operation.operation.method.toUpperCase()], handlerFor(operation, stateful, { ...context, keys, fallback }));
  }
  return router;
}

interface HandlerDependencies extends ApiContext {
  keys: ReadonlySet<string>;
  fallback: PrismFallback;
}

function handlerFor(compiled: CompiledOperation, stateful: StatefulHandler | undefined, deps: HandlerDependencies): Middleware {
  const { operation } = compiled;
  const hasHeaders = Object.keys(compiled.headers).length > 0;
  return async (ctx) => {
    ctx.state.operationId = operation.id;
    if (hasHeaders) ctx.set(compiled.headers);
    const principal = authenticate(operation, credentials(ctx), deps.keys);
    const preferences = parsePrefer(ctx.get('prefer') || undefined);
    if (forcesCannedResponse(preferences)) {
      send(ctx, cannedResponse(deps.spec, operation, preferences));
      ctx.set('Preference-Applied', appliedPreferences(preferences));
      return;
    }
    const parameters = readParameters(compiled, { params: ctx.params, query: ctx.query, headers: ctx.headers, path: ctx.path });
    const body = await readBody(compiled, ctx.req, deps.config.maxBodyBytes);
    ctx.state.requestBody = body.text;
    const input = { ...parameters, body };
    const response = stateful
      ? stateful.handle(input, { pets: deps.store.tenant(tenantOf(principal, deps.config.tenancy)), basePath: deps.spec.basePath, listOrder: deps.config.listOrder })
      : await deps.fallback.respond(operation, { path: ctx.path.slice(deps.spec.basePath.length), query: ctx.query, headers: ctx.headers }, input, preferences);
    send(ctx, response);
    if (preferences.code === response.status) ctx.set('Preference-Applied', `code=${preferences.code}`);
  };
}

function credentials(ctx: Context): CredentialSource {
  return {
    header: (name) => ctx.get(name),
    query: (name) => {
      const value = ctx.query[name];
      return Array.isArray(value) ? value[0] : value;
    },
    cookie: (name) => ctx.cookies.get(name),
  };
}

function send(ctx: Context, response: MockResponse): void {
  ctx.status = response.status;
  if (response.headers) ctx.set(response.headers);
  if (response.json !== undefined) {
    ctx.set('Content-Type', JSON_CONTENT_TYPE);
    ctx.body = response.json;
  }
}

/** Outermost middleware: turns every failure into an `Error` body, then logs and journals the exchange. */
function observe(logger: Logger, journal: Journal): Middleware {
  return async (ctx, next) => {
    const started = performance.now();
    try {
      await next();
    } catch (error) {
      const problem = toProblem(error);
      if (problem.status >= 500 && !(error instanceof ProblemError)) logger.error({ err: error, url: ctx.url }, 'request failed');
      renderProblem(ctx, problem);
    }
    const durationMs = Math.round((performance.now() - started) * 100) / 100;
    if (logger.isLevelEnabled('info')) {
      logger.info({ method: ctx.method, url: ctx.url, status: ctx.status, durationMs, operationId: ctx.state.operationId }, 'request');
    }
    journal.record({
      time: Date.now(),
      method: ctx.method,
      url: ctx.url,
      operationId: ctx.state.operationId as string | undefined,
      status: ctx.status,
      durationMs,
      requestHeaders: ctx.headers,
      requestBody: (ctx.state.requestBody as string | undefined) ?? '',
      responseHeaders: ctx.response.headers,
      responseBody: ctx.body,
    });
  };
}

/** Writes a problem as the spec's `Error` body, keeping headers already set (CORS, deprecation). */
export function renderProblem(ctx: Context, problem: ProblemError): void {
  ctx.status = problem.status;
  ctx.set(problem.headers);
  ctx.set('Content-Type', JSON_CONTENT_TYPE);
  ctx.body = errorJson(problem);
}
