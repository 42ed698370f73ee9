import type { IncomingMessage, ServerResponse } from 'node:http';
import type Koa from 'koa';
import type { Context } from 'koa';

/** The listener `app.callback()` gives, as kennel's HTTP/1.1 server calls it. */
export type Listener = ReturnType<Koa['callback']>;

/** What Koa 3 has and its type declarations (written for Koa 2) leave out. */
interface KoaInternals {
  compose: (middleware: Koa['middleware']) => (ctx: Context) => Promise<void>;
  handleRequest(ctx: Context, middleware: (ctx: Context) => Promise<void>): Promise<void>;
  ctxStorage?: unknown;
}

/** Statuses whose answer has no body (Koa's `statuses.empty`). */
const EMPTY_STATUSES = new Set([204, 205, 304]);

/**
 * Koa's own request listener (`app.callback()`), minus the per-request `on-finished` watch for
 * the answers kennel writes itself: a text body, ended at once. That watch only forwards a socket
 * error after the answer to `app.on('error')`, which kennel logs at debug level, and it attaches
 * and detaches four listeners and their closures on every request: about a tenth of a create's
 * CPU (docs/decisions/hot-path.md). Every other answer (a stream, a Buffer, no body, HEAD, a
 * bypass) goes through Koa's own `handleRequest` and `respond`, watch included, so it is
 * answered exactly as Koa answers it.
 */
export function koaListener(app: Koa): Listener {
  const standard = app.callback();
  const internals = app as unknown as KoaInternals;
  // Koa's async local storage wraps every request; kennel never turns it on, but honour it if set.
  if (internals.ctxStorage) return standard;
  const middleware = internals.compose(app.middleware);
  return (request, response) => {
    const ctx = app.createContext(request as IncomingMessage, response as ServerResponse);
    response.statusCode = 404;
    return middleware(ctx)
      .then(() => respond(internals, ctx))
      .catch((error: Error) => ctx.onerror(error));
  };
}

function respond(app: KoaInternals, ctx: Context): void | Promise<void> {
  const { body, res } = ctx;
  if (
    typeof body === 'string' &&
    ctx.respond !== false &&
    ctx.method !== 'HEAD' &&
    !EMPTY_STATUSES.has(res.statusCode) &&
    ctx.writable
  ) {
    res.end(body);
    return;
  }
  // Koa's handleRequest sets 404 before running its middleware: this one puts the status back.
  const status = res.statusCode;
  return app.handleRequest(ctx, () => {
    res.statusCode = status;
    return Promise.resolve();
  });
}
