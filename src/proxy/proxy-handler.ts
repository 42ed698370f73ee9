import type { Context, Middleware } from 'koa';
import type { Logger } from 'pino';
import { ProblemError } from '../core/problem.js';
import type { Redactor } from '../core/redact.js';
import type { LoadedDocument } from '../openapi/load.js';
import { ADMIN_PREFIX } from '../mock/admin/admin-routes.js';
import type { JournalRecord } from '../mock/admin/journal.js';
import { queryOf } from '../mock/request/query.js';
import { isUnder } from '../mock/routing/route-table.js';
import { credentialNames, exchangeCredentials } from './exchange-credentials.js';
import { NOT_IN_DOCUMENT, ProxyTally } from './proxy-summary.js';
import { RequestCheck, type RequestVerdict } from './request-check.js';
import { forwardedHeaders, judgedBody, kennelHops, relayBody, relayHead } from './relay.js';
import { ResponseCheck, type DecodedBody } from './response-check.js';
import { readUpTo, targetOf, Upstream, type BoundedBody, type ProxyTarget, type UpstreamAnswer } from './upstream.js';
import { capViolations, violationsHeader, VIOLATIONS_HEADER, type Violation } from '../mock/respond/violation.js';

export interface ProxyOptions {
  document: LoadedDocument;
  upstream: URL;
  /** Request bytes held for validation; a longer body is forwarded whole, unvalidated. */
  maxRequestBytes: number;
  /** Response bytes held for validation; a longer body streams through unvalidated. */
  maxResponseBytes: number;
  /** Longest silence from the upstream before kennel answers 504. */
  timeoutMs: number;
  logger: Logger;
  /** Hides configured secrets and credential-carrying names in logs. */
  redactor: Redactor;
}

/** Bounds of proxy mode besides the request body (which `--max-body` sets). */
export const PROXY_DEFAULTS = {
  /** A Pet Store page is a few kilobytes; anything up to 1 MB is held and validated. */
  maxResponseBytes: 1024 * 1024,
  timeoutMs: 30_000,
};

/** Kennel proxies one request may pass before it is taken for a loop. */
const MAX_KENNEL_HOPS = 5;

/** A running proxy: its Koa middleware, what it counted, and its connections to close. */
export interface KennelProxy {
  middleware: Middleware;
  tally: ProxyTally;
  /** The upstream as printed (origin and base path). */
  label: string;
  summaryText(): string;
  /** Judges the exchanges that start from now on against `spec` (a `--watch` reload); the counts go on. */
  useDocument(document: LoadedDocument, redactor: Redactor): void;
  close(): void;
}

/** What one document judges with: both halves' checks, the names that carry credentials, the redactor. */
interface Judges {
  requests: RequestCheck;
  responses: ResponseCheck;
  names: ReturnType<typeof credentialNames>;
  redactor: Redactor;
}

function judgesOf(document: LoadedDocument, redactor: Redactor): Judges {
  return {
    requests: new RequestCheck(document),
    responses: new ResponseCheck(document),
    names: credentialNames(document),
    redactor,
  };
}

/** What every exchange of one proxy shares: its options, connections, counts and printed upstream. */
interface ProxyState {
  options: ProxyOptions;
  upstream: Upstream;
  tally: ProxyTally;
  label: string;
}

/** One exchange under way: the judges it started with, its credentials, its request and their verdict. */
interface Exchange {
  ctx: Context;
  judges: Judges;
  credentials: Redactor;
  request: BoundedBody;
  target: ProxyTarget;
  verdict: RequestVerdict;
  operation: string;
}

/** Proxy mode: every request outside the admin API goes to `upstream`; both halves are judged against the document. */
export function createProxy(options: ProxyOptions): KennelProxy {
  const state: ProxyState = {
    options,
    upstream: new Upstream(options.upstream, {
      timeoutMs: options.timeoutMs,
      maxResponseBytes: options.maxResponseBytes,
    }),
    tally: new ProxyTally(),
    label: options.upstream.origin + options.upstream.pathname.replace(/\/$/, ''),
  };
  let judges = judgesOf(options.document, options.redactor);
  const middleware: Middleware = async (ctx, next) => {
    if (isUnder(ctx.path, ADMIN_PREFIX)) {
      await next();
      return;
    }
    refuseLoop(ctx, state.label);
    const target = targetOf(options.upstream, ctx.url);
    // One exchange is judged by one document, even when a reload lands while it is under way.
    const snapshot = judges;
    const read = await readRequest(ctx, snapshot, options.maxRequestBytes);
    if (!read) return clientWentAway(ctx, options.logger, 'before its request was read');
    const exchange = await judgeRequest(ctx, snapshot, read, target);
    const answer = await forward(state, exchange);
    if (!answer) return clientWentAway(ctx, options.logger, 'while the upstream answered');
    const body = judgedBody(answer, ctx.method, options.maxResponseBytes);
    const violations = recordViolations(state, exchange, judgeResponse(exchange, answer, body));
    relay(exchange, answer, body, violations, options.logger);
  };
  return {
    middleware,
    tally: state.tally,
    label: state.label,
    summaryText: () => state.tally.summaryText(state.label),
    useDocument: (spec, redactor) => (judges = judgesOf(spec, redactor)),
    close: () => state.upstream.close(),
  };
}

/** A chain of a few kennels is legitimate; more means --proxy leads back to a kennel (a loop): 508. */
function refuseLoop(ctx: Context, label: string): void {
  const hops = kennelHops(ctx.headers.via);
  if (hops >= MAX_KENNEL_HOPS)
    throw new ProblemError(
      508,
      'proxy_loop',
      `This request already passed through kennel ${hops} times (Via): --proxy ${label} leads back to kennel; point it at the deployment itself`,
    );
}

/**
 * A client that went away broke nothing: no answer is written (the journal and log say status 0),
 * and the log line is an info line without a stack.
 */
function clientWentAway(ctx: Context, logger: Logger, when: string): void {
  ctx.respond = false;
  if (!ctx.req.destroyed) ctx.req.destroy();
  logger.info({ method: ctx.method, operationId: ctx.state.operationId }, `the client went away ${when}`);
}

/**
 * The request's credentials (named by `judges`' document) and its body, held up to `limit` bytes;
 * undefined when the client went away before its body arrived.
 */
async function readRequest(
  ctx: Context,
  judges: Judges,
  limit: number,
): Promise<{ credentials: Redactor; request: BoundedBody } | undefined> {
  const credentials = exchangeCredentials(ctx, judges.names);
  let request: BoundedBody;
  try {
    request = await readUpTo(ctx.req, limit);
  } catch {
    // The only way reading a request fails is its connection ending before the body did.
    return undefined;
  }
  ctx.state.requestBody = request.whole
    ? `(longer than ${limit} bytes: forwarded, not kept)`
    : request.head.toString('utf8');
  return { credentials, request };
}

/** Judges the request half against the document; the exchange carries the verdict from here on. */
async function judgeRequest(
  ctx: Context,
  judges: Judges,
  { credentials, request }: { credentials: Redactor; request: BoundedBody },
  target: ProxyTarget,
): Promise<Exchange> {
  const verdict = await judges.requests.judge({
    method: ctx.method,
    // The path as the upstream gets it (dot segments resolved), below the upstream's base path.
    path: target.path,
    query: queryOf(ctx),
    headers: ctx.headers,
    cookie: (name) => ctx.cookies.get(name),
    body: request.head,
    complete: request.whole === undefined,
  });
  const operation = verdict.operation?.operation.id ?? NOT_IN_DOCUMENT;
  if (verdict.operation) ctx.state.operationId = operation;
  return { ctx, judges, credentials, request, target, verdict, operation };
}

/**
 * Sends the request upstream, aborted when the client goes away (then undefined). An unreachable
 * upstream is a violation of its own, recorded and answered with the upstream's problem.
 */
async function forward(state: ProxyState, exchange: Exchange): Promise<UpstreamAnswer | undefined> {
  const { ctx, request, target } = exchange;
  const headers = forwardedHeaders(ctx, request);
  const gone = new AbortController();
  ctx.res.once('close', () => {
    if (!ctx.res.writableFinished) gone.abort();
  });
  try {
    return await state.upstream.forward(
      { method: ctx.method, target: target.url, headers, body: request.whole ?? request.head },
      gone.signal,
    );
  } catch (error) {
    // A client that went away broke nothing: no violation, nothing counted.
    if (gone.signal.aborted) return undefined;
    if (!(error instanceof ProblemError)) throw error;
    const failed: Violation = {
      location: 'upstream',
      rule: 'upstream-reachable',
      severity: 'error',
      message: error.message,
    };
    const violations = recordViolations(state, exchange, [...exchange.verdict.violations, failed]);
    throw new ProblemError(error.status, error.code, error.message, {
      [VIOLATIONS_HEADER]: violationsHeader(violations),
    });
  }
}

/** The request's violations and, for an operation of the document, the answer's. */
function judgeResponse(exchange: Exchange, answer: UpstreamAnswer, body: DecodedBody): Violation[] {
  const { ctx, verdict, operation } = exchange;
  const found = [...verdict.violations];
  if (verdict.operation) {
    const sent = { method: ctx.method, url: ctx.url, headers: {}, body: undefined };
    found.push(
      ...exchange.judges.responses.judge(operation, verdict.intent, sent, {
        status: answer.status,
        headers: answer.headers,
        body,
      }),
    );
  }
  return found;
}

/** Counts, logs and journals the exchange's violations, the request's own credentials hidden everywhere. */
function recordViolations(state: ProxyState, exchange: Exchange, found: readonly Violation[]): Violation[] {
  const { ctx, credentials, operation } = exchange;
  const { redactor } = exchange.judges;
  const { logger } = state.options;
  const hide = (text: string) => redactor.text(credentials.text(text));
  const violations = capViolations(found).map((violation) => ({ ...violation, message: hide(violation.message) }));
  state.tally.record(operation, violations);
  const url = credentials.text(ctx.url);
  const journal: Partial<JournalRecord> = { url, requestBody: hide(ctx.state.requestBody ?? ''), violations };
  ctx.state.journal = journal;
  if (violations.length > 0 && logger.isLevelEnabled('warn'))
    logger.warn(
      {
        method: ctx.method,
        url: redactor.url(url),
        operationId: ctx.state.operationId,
        violations: violations.map((violation) => `${violation.rule}: ${violation.message}`),
      },
      'exchange breaks the document',
    );
  return violations;
}

/** Writes the upstream's answer to the client, with the violations header when there are any. */
function relay(
  exchange: Exchange,
  answer: UpstreamAnswer,
  body: DecodedBody,
  violations: readonly Violation[],
  logger: Logger,
): void {
  const { ctx, credentials } = exchange;
  relayHead(ctx, answer);
  if (violations.length > 0) ctx.set(VIOLATIONS_HEADER, violationsHeader(violations));
  ctx.state.journal!.responseBody = credentials.text(body.ok ? body.text : `(${body.reason})`);
  relayBody(ctx, answer, logger);
}
