import type { Context } from 'koa';
import type { Logger } from 'pino';
import { endToEndHeaders, rawEndToEndHeaders } from './hop-by-hop.js';
import { decodeBody, type DecodedBody } from './response-check.js';
import type { BoundedBody, UpstreamAnswer } from './upstream.js';

/** Statuses whose answers have no body (RFC 9110 §6.4.1). */
function bodiless(status: number): boolean {
  return status < 200 || status === 204 || status === 205 || status === 304;
}

/** Request headers kennel does not pass on besides the hop-by-hop ones: its own concerns, or re-written. */
const NOT_FORWARDED = ['host', 'expect', 'content-length'];

/** How many kennel proxies a request has already passed (its `Via` entries that are kennel's). */
export function kennelHops(via: string | undefined): number {
  return (via ?? '').split(',').filter((entry) => /^\s*\S+\s+kennel\s*$/.test(entry)).length;
}

/**
 * The client's headers as the upstream gets them: end-to-end ones only, with kennel in `Via`, and
 * the body framed as the client framed it. Node sends the body of a GET, HEAD, DELETE, OPTIONS or
 * TRACE without any length unless told one, so the upstream would read it as a second request
 * (smuggled past the base path, `Via` and the journal): a body always goes with its length.
 */
export function forwardedHeaders(ctx: Context, body: BoundedBody): Record<string, string | string[]> {
  const headers = endToEndHeaders(ctx.headers, NOT_FORWARDED);
  const declared = ctx.headers['content-length'];
  const chunked = ctx.headers['transfer-encoding'] !== undefined;
  if (body.whole) {
    // Streamed on as it comes: with the length the client declared, else chunked as the client sent it.
    if (declared !== undefined) headers['content-length'] = declared;
    else headers['transfer-encoding'] = 'chunked';
  } else if (declared !== undefined || chunked) headers['content-length'] = String(body.head.length);
  headers.via = [ctx.headers.via, `1.${ctx.req.httpVersionMinor} kennel`].filter(Boolean).join(', ');
  return headers;
}

/** The answer's body as the response checks read it; a body not held whole is said so. */
export function judgedBody(answer: UpstreamAnswer, method: string, limit: number): DecodedBody {
  if (method === 'HEAD' || bodiless(answer.status)) return { ok: true, text: '', size: 0 };
  if (answer.body.whole) return { ok: false, reason: `it is longer than ${limit} bytes` };
  return decodeBody(answer.body.head, answer.headers, limit);
}

/** Writes the upstream's status line and end-to-end headers, as received. */
export function relayHead(ctx: Context, answer: UpstreamAnswer): void {
  ctx.status = answer.status;
  if (answer.statusMessage) ctx.message = answer.statusMessage;
  ctx.set(rawEndToEndHeaders(answer.rawHeaders));
}

/**
 * Writes the body's very bytes. A long one is piped by kennel itself rather than handed to Koa:
 * when either side breaks off, the other's connection is cut (the truthful relay of a cut answer)
 * and a warning logged, where Koa would print a stack trace.
 */
export function relayBody(ctx: Context, answer: UpstreamAnswer, logger: Logger): void {
  if (ctx.method === 'HEAD' || bodiless(answer.status)) return;
  const whole = answer.body.whole;
  if (!whole) {
    ctx.body = answer.body.head;
    // Koa names a type for bodies that have none; the upstream's answer has to stay as it was.
    if (answer.headers['content-type'] === undefined) ctx.remove('Content-Type');
    return;
  }
  ctx.respond = false;
  ctx.res.writeHead(ctx.status, ctx.message);
  // Ended without an error on purpose: an error on the socket reaches Koa, which prints its stack.
  whole.once('error', (error) => {
    logger.warn({ method: ctx.method, status: ctx.status, reason: error.message }, 'the upstream broke off its answer');
    ctx.res.destroy();
  });
  ctx.res.once('close', () => {
    if (!ctx.res.writableFinished) whole.destroy();
  });
  whole.pipe(ctx.res);
}
