import type { IncomingMessage } from 'node:http';
import Koa, { type Context, type Middleware } from 'koa';
import compose from 'koa-compose';
import type { Logger } from 'pino';
import { ProblemError } from '../core/problem.js';
import type { LoadedDocument } from '../openapi/load.js';
import type { ResourceModel } from '../openapi/resource-model.js';
import { andThen, type Store } from '../store/store-types.js';
import { StoreUnavailable } from '../store/store-unavailable.js';
import type { Redactor } from '../core/redact.js';
import { adminRouter } from './admin/admin-routes.js';
import { authenticate, type CredentialSource } from './request/auth.js';
import { acceptedKeys, type MockConfig } from './config.js';
import { Journal, responseHeaderList } from './admin/journal.js';
import { JSON_CONTENT_TYPE } from '../http/http-response.js';
import { limitedList } from './respond/resource-limit.js';
import { referenceGuard } from './respond/reference-guard.js';
import { itemActionAnswers, itemGuards, type ItemActionAnswer, type ItemGuard } from './respond/item-operations.js';
import { resourceHandlers, type ResourceHandler } from './respond/resource-responder.js';
import { resourceSetup, type Seeder, type StoreFactory } from './respond/resource-setup.js';
import { DocumentAnswers } from './respond/document-answers.js';
import { exampleWarnings } from './respond/example-check.js';
import { SchemaValidators } from '../openapi/validators.js';
import { SuccessorStore, type SuccessorChecks } from './retired-store.js';
import { mockRedactor } from './admin/redaction.js';
import { errorJson, toProblem } from './respond/problems.js';
import { pathUnder } from './routing/route-table.js';
import { adminGuard } from './admin/admin-guard.js';
import { corsOutsideAdmin, frontStages } from './front-stages.js';
import { specRouter } from './routing/spec-router.js';
import type { RequestInput, Responder, RoutedOperation } from '../http/responder.js';
import { tenantOf } from './tenancy.js';
import { queryOf } from './request/query.js';
import { shorten } from '../core/text.js';
import type { Clock } from '../core/clock.js';
import { chaosAdminRouter } from './chaos/chaos-admin.js';
import { ChaosEngine } from './chaos/chaos-engine.js';
import { chaosHook } from './chaos/chaos-hook.js';
import { checkedChaos } from './chaos/chaos-setup.js';
import { nowAdminRouter } from './time/now-admin.js';
import { sunsetHook } from './time/sunset.js';
import { VirtualNow } from './time/virtual-now.js';

export interface MockDependencies {
  document: LoadedDocument;
  config: MockConfig;
  /** Named seeders a document's x-kennel-resources may attach to its collections (the Pet Store's `pets`). */
  seeders?: Record<string, Seeder>;
  logger: Logger;
  /** Further APIs mounted before the pet routes (each claims its own prefix). */
  extraApis?: ExtraApi[];
  /** Proxy mode: answers every request outside the admin API instead of the mock (src/proxy). */
  proxy?: Middleware;
  /** Makes the store (default: in memory; the Redis store for `--store redis://`). */
  makeStore?: StoreFactory;
  /** The real clock (tests may pass another); the mock's own "now" is a VirtualNow over it. */
  clock?: Clock;
}

export interface MockApp {
  app: Koa;
  /** Every tenant's items of every stateful collection of the document. */
  store: Store;
  /** The store this app's requests use: `store`, or after a reload its successor's (`handOver`). */
  requests: Store;
  /**
   * Sends the requests still under way in this app to `successor` (the `requests` store of the app
   * a reload swapped in), their writes checked by `checks` (reloadable.ts).
   */
  handOver(successor: Store, checks: SuccessorChecks): void;
  journal: Journal;
  /** The chaos table in force (replaceable at /__kennel/chaos). */
  chaos: ChaosEngine;
  /** The mock's "now" (virtual when set with --now or /__kennel/now). */
  now: VirtualNow;
}

/** A second API served beside the pets under /__kennel, such as the domain simulator's control API. */
export interface ExtraApi {
  router: Middleware;
}

/** Builds the Koa app that serves `document`: routes, validation and responses all derive from the document. */
export function createMockApp({
  document,
  config,
  seeders = {},
  logger,
  extraApis = [],
  proxy,
  makeStore,
  clock = { now: () => Date.now() },
}: MockDependencies): MockApp {
  const { model, store } = resourceSetup(
    document,
    seeders,
    {
      seed: config.seed,
      capacity: config.maxItemsPerTenant,
      storeBytes: config.maxStoreBytes,
      totalBytes: config.maxTotalBytes,
    },
    makeStore,
  );
  // What the handlers use: this app's store, until a reload hands the requests under way on.
  const routed = new SuccessorStore(store);
  const handOver = (successor: Store, checks: SuccessorChecks) => routed.handOver(successor, checks);
  const accepted = acceptedKeys(config);
  const redactor = mockRedactor(document, accepted, config.adminToken);
  const journal = new Journal({ entries: config.journalSize, bytes: config.journalBytes }, redactor);
  const keys: ReadonlySet<string> = new Set(accepted);
  const now = new VirtualNow(clock, config.now);
  const chaos = new ChaosEngine(checkedChaos(config.chaos, document), config.seed, clock);
  const app = new Koa();
  // observe() answers every failure, so only what happens once an answer is under way gets here (a
  // client resetting its connection mid-stream): a log line, where Koa would print a stack trace.
  app.on('error', (error: Error) => logger.debug({ reason: error.message }, 'connection ended early'));
  app.use(observe(logger, journal, redactor, config.maxBodyBytes));
  const operationIds = document.operations.map((operation) => operation.id);
  const { adminToken, maxBodyBytes } = config;
  app.use(
    frontStages({
      guard: adminGuard({ allowedHosts: config.allowedHosts ?? [], boundHost: config.host }),
      // A proxied deployment answers its own CORS, preflights included.
      cors: config.cors && !proxy ? corsOutsideAdmin(config.adminToken !== undefined) : undefined,
      admin: compose([
        adminRouter({ document, config, store: routed, journal }).routes() as Middleware,
        chaosAdminRouter({ engine: chaos, operationIds, adminToken, maxBodyBytes }).routes() as Middleware,
        nowAdminRouter(now, config.adminToken, config.maxBodyBytes).routes() as Middleware,
        ...extraApis.map((extra) => extra.router),
      ]),
    }),
  );
  if (proxy) {
    app.use(proxy);
    return { app, store, requests: routed, handOver, journal, chaos, now };
  }
  const validators = new SchemaValidators(document.document);
  document.warnings.push(...exampleWarnings(document, validators));
  const answers = new DocumentAnswers(document, validators, { seed: config.seed, dynamic: config.dynamic ?? false });
  app.use(
    specRouter({
      document,
      validators,
      answers,
      prismQuery: config.prismQuery ?? false,
      prefix: document.basePath,
      maxBodyBytes: config.maxBodyBytes,
      authenticate: (operation, ctx) => authenticate(operation, credentials(ctx), keys),
      respond: resourceResponder(config, routed, model, answers),
      around: sunsetHook(document, now, config.afterSunset ?? 'gone'),
      afterAuth: chaosHook(chaos, config.chaos?.maxHeld),
    }),
  );
  app.use(notFound(document.basePath));
  return { app, store, requests: routed, handOver, journal, chaos, now };
}

/** Operations of the document's stateful resources get kennel's store; everything else is answered from the document. */
function resourceResponder(
  config: MockConfig,
  store: Store,
  model: ResourceModel,
  answers: DocumentAnswers,
): Responder {
  const { document } = answers;
  const options = { document, model, listOrder: config.listOrder, seed: config.seed };
  const handlers = config.stateless ? new Map<string, ResourceHandler>() : resourceHandlers(options);
  const guards = config.stateless ? new Map<string, ItemGuard>() : itemGuards(options);
  const actions = config.stateless ? new Map<string, ItemActionAnswer>() : itemActionAnswers(options);
  const references = config.stateless ? undefined : referenceGuard(document, model);
  return (compiled, input, request) => {
    const guard = guards.get(compiled.operation.id);
    if (!guard && !references && !actions.has(compiled.operation.id)) return answer(compiled, input, request);
    const tenant = store.tenant(tenantOf(request.principal, config.tenancy));
    // An operation on an item that does not exist gets its 404 first; then a body naming a kept
    // resource that does not exist gets the document's 422/404/409.
    const referenced = () =>
      references
        ? andThen(references(compiled.operation, input, tenant), () => answer(compiled, input, request))
        : answer(compiled, input, request);
    return guard ? andThen(guard(input, tenant), referenced) : referenced();
  };

  function answer(...[compiled, input, request]: Parameters<Responder>): ReturnType<Responder> {
    const stateful = handlers.get(compiled.operation.id);
    if (stateful) return stateful(input, store.tenant(tenantOf(request.principal, config.tenancy)), request);
    const action = actions.get(compiled.operation.id);
    if (action)
      return andThen(
        action(input, store.tenant(tenantOf(request.principal, config.tenancy))),
        (acted) => acted ?? documentAnswer(compiled, input, request),
      );
    return documentAnswer(compiled, input, request);
  }

  function documentAnswer(...[compiled, input, request]: Parameters<Responder>): ReturnType<Responder> {
    const accept = request.headers.accept;
    const canned = answers.respond(compiled.operation, {
      accept: Array.isArray(accept) ? accept.join(', ') : accept,
      preferences: request.preferences,
      sent: config.stateless ? undefined : echoedBody(model, compiled.operation, input),
    });
    const list = config.stateless ? undefined : model.bindingOf(compiled.operation)?.list;
    return list ? limitedList(canned, list, input, request, document.basePath) : canned;
  }
}

/**
 * The JSON object a create kennel keeps nothing of sent (`POST /payments/{ref}/captures`: a
 * collection without a key): its answer echoes what it declares of it (docs/mock-behaviour.md).
 */
function echoedBody(
  model: ResourceModel,
  operation: RoutedOperation['operation'],
  input: RequestInput,
): Record<string, unknown> | undefined {
  const binding = model.bindingOf(operation);
  if (binding?.role !== 'create' || binding.resource.stateful || !input.body.present) return undefined;
  const value = input.body.value;
  return value !== null && typeof value === 'object' && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

/** Whatever nothing else answered: a 404 that points at the API's base path. */
function notFound(basePath: string): Middleware {
  return async (ctx) => {
    const hint = basePath && pathUnder(ctx.path, basePath) === undefined ? ` (the API lives under ${basePath})` : '';
    throw new ProblemError(404, 'not_found', `No operation at ${ctx.method} ${shorten(ctx.path)}${hint}`);
  };
}

function credentials(ctx: Context): CredentialSource {
  return {
    header: (name) => ctx.get(name),
    query: (name) => {
      const value = queryOf(ctx)[name];
      return Array.isArray(value) ? value[0] : value;
    },
    cookie: (name) => ctx.cookies.get(name),
  };
}

/** Outermost middleware: turns every failure into an `Error` body, then logs and journals the exchange. */
function observe(logger: Logger, journal: Journal, redactor: Redactor, maxBodyBytes: number): Middleware {
  return async (ctx, next) => {
    const started = performance.now();
    try {
      await next();
    } catch (error) {
      const problem = toProblem(error);
      if (problem.status >= 500 && !(error instanceof ProblemError) && !(error instanceof StoreUnavailable))
        logger.error({ err: error, url: redactor.url(ctx.url) }, 'request failed');
      renderProblem(ctx, problem, redactor);
    }
    if (!ctx.req.complete && !drainable(ctx.req, maxBodyBytes)) ctx.set('Connection', 'close');
    const durationMs = Math.round((performance.now() - started) * 100) / 100;
    // No answer was written (chaos reset or held the connection): the journal and log say 0.
    const status = ctx.respond === false ? 0 : ctx.status;
    if (logger.isLevelEnabled('info')) {
      logger.info(
        {
          method: ctx.method,
          url: redactor.url(ctx.state.journal?.url ?? ctx.url),
          status,
          durationMs,
          operationId: ctx.state.operationId,
        },
        'request',
      );
    }
    journal.record({
      time: Date.now(),
      method: ctx.method,
      url: ctx.url,
      operationId: ctx.state.operationId,
      status,
      durationMs,
      chaos: ctx.state.chaos,
      requestHeaders: ctx.headers,
      requestBody: ctx.state.requestBody ?? '',
      responseHeaders: responseHeaderList(ctx.res),
      responseBody: ctx.body,
      // Proxy mode records what it read (the upstream's text, the violations), its credentials hidden.
      ...ctx.state.journal,
    });
  };
}

/**
 * Whether the unread rest of a body answered before it arrived whole (refused first: no
 * credentials, no such item) may be left to Node, which reads and drops it after the answer and
 * keeps the connection, as clients expect: a declared length within the body limit. A larger or
 * chunked body could take long to drain, so its connection ends with the answer instead. Either
 * way the rest is never read as the next request.
 */
function drainable(request: IncomingMessage, maxBodyBytes: number): boolean {
  const length = request.headers['content-length'];
  if (request.headers['transfer-encoding'] !== undefined || length === undefined || !/^\d+$/.test(length)) return false;
  return Number(length) <= maxBodyBytes;
}

/**
 * Writes a problem, keeping headers already set (CORS, deprecation): for a matched operation in
 * the words its document uses for that status (documented-error.ts), else as kennel's `Error`.
 * Messages may quote the request (a path, a Prefer value): configured secrets are hidden there too.
 */
function renderProblem(ctx: Context, problem: ProblemError, redactor: Redactor): void {
  ctx.set(problem.headers);
  const scope = ctx.state.errorScope;
  if (!scope) {
    ctx.status = problem.status;
    ctx.set('Content-Type', JSON_CONTENT_TYPE);
    ctx.body = redactor.text(errorJson(problem));
    return;
  }
  const answer = scope.errors.answer(scope.operation, problem, { path: ctx.path, accept: ctx.get('accept') });
  if (answer.body === undefined) {
    // Null before the status: Koa turns a null body set after a 4xx status into a 204.
    ctx.body = null;
    ctx.status = answer.status;
    if (answer.note) ctx.set('Kennel-Problem', redactor.text(answer.note).replace(/[^\x20-\x7e]/g, '?'));
    return;
  }
  ctx.status = answer.status;
  ctx.set('Content-Type', answer.contentType ?? JSON_CONTENT_TYPE);
  ctx.body = redactor.text(answer.body);
}
