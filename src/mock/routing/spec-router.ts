import type { Context, Middleware } from 'koa';
import type { LoadedDocument } from '../../openapi/load.js';
import { responseFor, type Operation } from '../../openapi/operations.js';
import { SchemaValidators } from '../../openapi/validators.js';
import { cannedResponse } from '../respond/canned.js';
import { DocumentAnswers } from '../respond/document-answers.js';
import { compileOperation, type CompiledOperation } from '../compiled-operation.js';
import { DocumentedErrors, type ErrorScope } from '../respond/documented-error.js';
import { acceptableMedia } from '../respond/media-negotiation.js';
import { ResponseView } from '../respond/response-view.js';
import { jsonContentType } from '../respond/response-body.js';
import { JSON_CONTENT_TYPE, type HttpResponse } from '../../http/http-response.js';
import {
  appliedPreferences,
  forcesCannedResponse,
  parsePrefer,
  preferFromQuery,
  type Preferences,
} from '../../http/prefer.js';
import type { JsonBody, Principal, RequestContext, Responder } from '../../http/responder.js';
import { readBody, readParameters } from '../request/request-input.js';
import { unmatched } from './route-table.js';
import { queryOf } from '../request/query.js';
import { PathMatcher } from './path-matcher.js';
import { pathUnder } from './route-table.js';

export interface SpecRouterOptions {
  document: LoadedDocument;
  /** The document's compiled validators, when the caller shares them (one compile per schema). */
  validators?: SchemaValidators;
  /** Read Prism's `__code`/`__example`/`__dynamic` query parameters as `Prefer` (`--prism-query`). */
  prismQuery?: boolean;
  /** What answers from the document alone (forced `Prefer` answers); the caller's, to share its seed and mode. */
  answers?: DocumentAnswers;
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

/**
 * Sets kennel's own headers on the response. Not `ctx.set`: Koa 3 builds three arrays and a
 * closure per call to normalise values kennel never gives it (one-element arrays).
 */
function setHeaders(ctx: Context, headers: Readonly<Record<string, string>>): void {
  for (const name in headers) ctx.res.setHeader(name, headers[name]!);
}

/** Writes a handler's answer to Koa. */
export function send(ctx: Context, response: HttpResponse): void {
  if (response.headers) setHeaders(ctx, response.headers);
  if (response.json !== undefined) {
    ctx.status = response.status;
    ctx.res.setHeader('Content-Type', response.contentType ?? JSON_CONTENT_TYPE);
    ctx.body = response.json;
  } else if (response.text !== undefined) {
    ctx.status = response.status;
    ctx.res.setHeader('Content-Type', response.contentType ?? 'text/plain; charset=utf-8');
    ctx.body = response.text;
  } else {
    // No body documented: none is sent (Koa would write its status text). Null before the status,
    // or Koa turns the answer into a 204.
    ctx.body = null;
    ctx.status = response.status;
  }
}

/**
 * A JSON answer made without a media type in view, in the documented JSON kind
 * (`application/vnd.api+json`). Without an `Accept` the kind depends on the status alone: it is
 * looked up once per status, not on every request.
 */
function documentedJsonType(
  operation: Operation,
): (response: HttpResponse, accept: string | undefined) => HttpResponse {
  const typeOf = (status: number, accept: string | undefined) => {
    const documented = responseFor(operation, status);
    return documented && jsonContentType(documented.content, accept);
  };
  const withoutAccept = new Map<number, string | undefined>();
  return (response, accept) => {
    if (response.json === undefined || response.contentType !== undefined) return response;
    const { status } = response;
    let contentType: string | undefined;
    if (accept !== undefined) contentType = typeOf(status, accept);
    else if (withoutAccept.has(status)) contentType = withoutAccept.get(status);
    else withoutAccept.set(status, (contentType = typeOf(status, undefined)));
    return contentType ? { ...response, contentType } : response;
  };
}

const noBody = (): JsonBody => ({ text: '', value: undefined, present: false });

/** What every operation's handler shares: the document's error words and its response view. */
interface Shared {
  errors: DocumentedErrors;
  views: ResponseView;
  answers: DocumentAnswers;
}

/** Answers one matched operation; `params` are its path parameters by the document's names, decoded. */
type OperationHandler = (ctx: Context, params: Record<string, string>) => Promise<void>;

function handlerFor(
  compiled: CompiledOperation,
  options: SpecRouterOptions,
  { errors, views, answers }: Shared,
): OperationHandler {
  const { operation } = compiled;
  const hasHeaders = Object.keys(compiled.headers).length > 0;
  const errorScope: ErrorScope = { operation, errors };
  const label = `${operation.method.toUpperCase()} ${operation.path}`;
  const offered = (compiled.ordinary?.content ?? []).map((media) => media.mediaType);
  const withDocumentedJsonType = documentedJsonType(operation);
  const answer = (ctx: Context, params: Record<string, string>, preferences: Preferences): Promise<void> => {
    const principal = options.authenticate(operation, ctx);
    ctx.state.principal = principal;
    const rest = () => respond(ctx, params, preferences, principal);
    return options.afterAuth ? options.afterAuth(ctx, operation, preferences, rest) : rest();
  };
  const respond = async (
    ctx: Context,
    params: Record<string, string>,
    preferences: Preferences,
    principal: Principal,
  ): Promise<void> => {
    const forced = forcesCannedResponse(preferences);
    const accept = ctx.get('accept');
    if (!forced && accept && offered.length > 0) acceptableMedia(label, offered, accept);
    // Prefer picks what is answered, never whether the request is checked: an invalid request
    // gets its documented error whatever it prefers.
    const parameters = readParameters(compiled, {
      params,
      query: queryOf(ctx),
      headers: ctx.headers,
      path: ctx.path,
    });
    // An operation without a documented body reads none: no promise to wait for.
    const body = compiled.body ? await readBody(compiled, ctx.req, options.maxBodyBytes) : noBody();
    ctx.state.requestBody = body.text;
    if (forced) {
      const context = { accept: accept || undefined, path: ctx.path, errors };
      send(ctx, views.apply(operation, cannedResponse(answers, operation, preferences, context)));
      ctx.set('Preference-Applied', appliedPreferences(preferences));
      return;
    }
    const request: RequestContext = {
      principal,
      path: pathUnder(ctx.path, options.prefix) ?? ctx.path,
      query: queryOf(ctx),
      headers: ctx.headers,
      preferences,
    };
    // The memory store answers at once; only a promise (the Redis store's) is waited for.
    const given = options.respond(compiled, { ...parameters, body }, request);
    const answered = views.apply(operation, given instanceof Promise ? await given : given);
    const response = withDocumentedJsonType(answered, accept || undefined);
    send(ctx, response);
    if (preferences.code === response.status) ctx.set('Preference-Applied', `code=${preferences.code}`);
  };
  const { around } = options;
  // Not async: the answer's own promise goes back to Koa as it is (a sync throw becomes a rejection there).
  return (ctx, params) => {
    ctx.state.operationId = operation.id;
    ctx.state.errorScope = errorScope;
    if (hasHeaders) setHeaders(ctx, compiled.headers);
    const header = ctx.get('prefer');
    const shortcuts = options.prismQuery ? preferFromQuery(queryOf(ctx)) : undefined;
    // A header's preferences come first, and RFC 7240 reads a repeated preference only the first time.
    const preferences = parsePrefer(shortcuts ? [header, shortcuts].filter(Boolean).join(', ') : header || undefined);
    if (around) return around(ctx, operation, preferences, () => answer(ctx, params, preferences));
    return answer(ctx, params, preferences);
  };
}

/**
 * Serves the operations of an OpenAPI document under `prefix`: routes (OpenAPI path matching:
 * path-matcher.ts), auth first, `Prefer`, parameter and body validation all derive from the
 * document (ajv validators compiled once); `respond` supplies the answers. Unmatched requests
 * under the prefix get 404/405 Error bodies.
 */
export function specRouter(options: SpecRouterOptions): Middleware {
  const validators = options.validators ?? new SchemaValidators(options.document.document);
  const shared: Shared = {
    errors: new DocumentedErrors(options.document, validators),
    views: new ResponseView(options.document),
    answers: options.answers ?? new DocumentAnswers(options.document, validators, { seed: 1, dynamic: false }),
  };
  const byPath = new Map<string, Map<string, OperationHandler>>();
  for (const operation of options.document.operations) {
    const compiled = compileOperation(options.document, validators, operation);
    const methods = byPath.get(operation.path) ?? new Map<string, OperationHandler>();
    methods.set(operation.method.toUpperCase(), handlerFor(compiled, options, shared));
    byPath.set(operation.path, methods);
  }
  const matcher = new PathMatcher([...byPath].map(([template, value]) => ({ template, value })));
  const { prefix } = options;
  return (ctx, next) => {
    const rest = pathUnder(ctx.path, prefix);
    if (rest === undefined) return next();
    const matches = matcher.match(rest || '/', (name) => queryOf(ctx)[name]);
    const method = ctx.method;
    for (const match of matches) {
      const handler = match.value.get(method) ?? (method === 'HEAD' ? match.value.get('GET') : undefined);
      if (handler) return handler(ctx, match.params);
    }
    return unmatched(ctx, matches[0]?.value.keys());
  };
}
