import Router from '@koa/router';
import type { Context, Middleware } from 'koa';
import compose from 'koa-compose';
import type { LoadedDocument } from '../openapi/load.js';
import type { Operation } from '../openapi/operations.js';
import { SchemaValidators } from '../openapi/validators.js';
import { cannedResponse } from './canned.js';
import { compileOperation, type CompiledOperation } from './compiled-operation.js';
import { DocumentedErrors, type ErrorScope } from './documented-error.js';
import { acceptableMedia } from './media-negotiation.js';
import { ResponseView } from './response-view.js';
import { JSON_CONTENT_TYPE, type HttpResponse } from '../http/http-response.js';
import { appliedPreferences, forcesCannedResponse, parsePrefer, type Preferences } from '../http/prefer.js';
import type { Principal, RequestContext, Responder } from '../http/responder.js';
import { readBody, readParameters } from './request-input.js';
import { routeTable } from './route-table.js';
import { queryOf } from './query.js';

export interface SpecRouterOptions {
  spec: LoadedDocument;
  /** Where the operations are mounted (`/v1`, `/__kennel/world`). */
  prefix: string;
  maxBodyBytes: number;
  /** Checks credentials first, before anything else is read; throws the 401 problem. */
  authenticate(operation: Operation, ctx: Context): Principal;
  respond: Responder;
  /** Wraps every matched request before auth (the sunset): may answer it. */
  around?: OperationHook;
  /**
   * Wraps every authenticated request (chaos): may delay it, answer it or drop it. After auth, so a
   * request without valid credentials spends no delay and holds no slot.
   */
  afterAuth?: OperationHook;
}

/** Runs around a matched operation's handling; `next` authenticates, validates and answers. */
export type OperationHook = (
  ctx: Context,
  operation: Operation,
  preferences: Preferences,
  next: () => Promise<void>,
) => Promise<void>;

/** Writes a handler's answer to Koa. */
export function send(ctx: Context, response: HttpResponse): void {
  if (response.headers) ctx.set(response.headers);
  if (response.json !== undefined) {
    ctx.status = response.status;
    ctx.set('Content-Type', response.contentType ?? JSON_CONTENT_TYPE);
    ctx.body = response.json;
  } else if (response.text !== undefined) {
    ctx.status = response.status;
    ctx.set('Content-Type', response.contentType ?? 'text/plain; charset=utf-8');
    ctx.body = response.text;
  } else {
    // No body documented: none is sent (Koa would write its status text). Null before the status,
    // or Koa turns the answer into a 204.
    ctx.body = null;
    ctx.status = response.status;
  }
}

/** What every operation's handler shares: the document's error words and its response view. */
interface Shared {
  errors: DocumentedErrors;
  views: ResponseView;
}

function handlerFor(compiled: CompiledOperation, options: SpecRouterOptions, { errors, views }: Shared): Middleware {
  const { operation } = compiled;
  const hasHeaders = Object.keys(compiled.headers).length > 0;
  const errorScope: ErrorScope = { operation, errors };
  const label = `${operation.method.toUpperCase()} ${operation.path}`;
  const offered = (compiled.ordinary?.content ?? []).map((media) => media.mediaType);
  const answer = (ctx: Context, preferences: Preferences): Promise<void> => {
    const principal = options.authenticate(operation, ctx);
    ctx.state.principal = principal;
    const rest = () => respond(ctx, preferences, principal);
    return options.afterAuth ? options.afterAuth(ctx, operation, preferences, rest) : rest();
  };
  const respond = async (ctx: Context, preferences: Preferences, principal: Principal): Promise<void> => {
    if (forcesCannedResponse(preferences)) {
      const accept = ctx.get('accept') || undefined;
      send(ctx, cannedResponse(options.spec, operation, preferences, { accept, path: ctx.path, errors }));
      ctx.set('Preference-Applied', appliedPreferences(preferences));
      return;
    }
    const accept = ctx.get('accept');
    if (accept && offered.length > 0) acceptableMedia(label, offered, accept);
    const parameters = readParameters(compiled, {
      params: ctx.params,
      query: queryOf(ctx),
      headers: ctx.headers,
      path: ctx.path,
    });
    const body = await readBody(compiled, ctx.req, options.maxBodyBytes);
    ctx.state.requestBody = body.text;
    const request: RequestContext = {
      principal,
      path: ctx.path.slice(options.prefix.length),
      query: queryOf(ctx),
      headers: ctx.headers,
      preferences,
    };
    const response = views.apply(operation, await options.respond(compiled, { ...parameters, body }, request));
    send(ctx, response);
    if (preferences.code === response.status) ctx.set('Preference-Applied', `code=${preferences.code}`);
  };
  const { around } = options;
  // Not async: the answer's own promise goes back to Koa as it is (a sync throw becomes a rejection there).
  return (ctx) => {
    ctx.state.operationId = operation.id;
    ctx.state.errorScope = errorScope;
    if (hasHeaders) ctx.set(compiled.headers);
    const preferences = parsePrefer(ctx.get('prefer') || undefined);
    if (around) return around(ctx, operation, preferences, () => answer(ctx, preferences));
    return answer(ctx, preferences);
  };
}

/**
 * Serves the operations of an OpenAPI document under `prefix`: routes, auth first, `Prefer`,
 * parameter and body validation all derive from the document (ajv validators compiled once);
 * `respond` supplies the answers. Unmatched requests under the prefix get 404/405 Error bodies.
 */
export function specRouter(options: SpecRouterOptions): Middleware {
  const validators = new SchemaValidators(options.spec.document);
  const shared: Shared = {
    errors: new DocumentedErrors(options.spec, validators),
    views: new ResponseView(options.spec),
  };
  const compiled = options.spec.operations.map((operation) => compileOperation(options.spec, validators, operation));
  const router = new Router(options.prefix ? { prefix: options.prefix } : {});
  for (const operation of compiled)
    router.register(
      operation.routePath,
      [operation.operation.method.toUpperCase()],
      handlerFor(operation, options, shared),
    );
  return compose([router.routes() as Middleware, routeTable(compiled, options.prefix)]);
}
