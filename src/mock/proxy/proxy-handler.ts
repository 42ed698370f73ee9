import type { Context, Middleware } from 'koa';
import type { Logger } from 'pino';
import { ProblemError } from '../../core/problem.js';
import type { Redactor } from '../../core/redact.js';
import type { LoadedDocument } from '../../openapi/load.js';
import { ADMIN_PREFIX } from '../admin-routes.js';
import type { JournalRecord } from '../journal.js';
import { queryOf } from '../query.js';
import { isUnder } from '../route-table.js';
import { credentialNames, exchangeCredentials, type CredentialNames } from './exchange-credentials.js';
import { NOT_IN_DOCUMENT, ProxyTally } from './proxy-summary.js';
import { RequestCheck, type RequestVerdict } from './request-check.js';
import { forwardedHeaders, judgedBody, relayBody, relayHead } from './relay.js';
import { ResponseCheck, type DecodedBody } from './response-check.js';
import { readUpTo, Upstream, type BoundedBody, type UpstreamAnswer } from './upstream.js';
import { capViolations, violationsHeader, VIOLATIONS_HEADER, type Violation } from './violation.js';

export interface ProxyOptions {
  spec: LoadedDocument;
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

/** A running proxy: its Koa middleware, what it counted, and its connections to close. */
export interface KennelProxy {
  middleware: Middleware;
  tally: ProxyTally;
  /** The upstream as printed (origin and base path). */
  label: string;
  summaryText(): string;
  close(): void;
}

/** Proxy mode: every request outside the admin API goes to `upstream`; both halves are judged against the document. */
export function createProxy(options: ProxyOptions): KennelProxy {
  const parts: ProxyParts = {
    options,
    upstream: new Upstream(options.upstream, {
      timeoutMs: options.timeoutMs,
      maxResponseBytes: options.maxResponseBytes,
    }),
    requests: new RequestCheck(options.spec),
    responses: new ResponseCheck(options.spec),
    tally: new ProxyTally(),
    names: credentialNames(options.spec),
  };
  const label = options.upstream.origin + options.upstream.pathname.replace(/\/$/, '');
  return {
    middleware: proxyMiddleware(parts),
    tally: parts.tally,
    label,
    summaryText: () => parts.tally.summaryText(label),
    close: () => parts.upstream.close(),
  };
}

/** What every proxied exchange goes through: the upstream, both judges, the tally. */
interface ProxyParts {
  options: ProxyOptions;
  upstream: Upstream;
  requests: RequestCheck;
  responses: ResponseCheck;
  tally: ProxyTally;
  names: CredentialNames;
}

function proxyMiddleware(parts: ProxyParts): Middleware {
  const { options } = parts;
  return async (ctx, next) => {
    if (isUnder(ctx.path, ADMIN_PREFIX)) return next();
    const credentials = exchangeCredentials(ctx, parts.names);
    const request = await readRequest(ctx, options.maxRequestBytes);
    const verdict = await judgeRequest(parts.requests, ctx, request);
    const operation = verdict.operation?.operation.id ?? NOT_IN_DOCUMENT;
    if (verdict.operation) ctx.state.operationId = operation;
    const settle = (found: readonly Violation[]) =>
      recordViolations(parts, ctx, operation, [...verdict.violations, ...found], credentials);
    const answer = await forward(parts.upstream, ctx, request, (failed) => settle([failed]));
    const body = judgedBody(answer, ctx.method, options.maxResponseBytes);
    const violations = settle(verdict.operation ? judgeResponse(parts.responses, ctx, verdict, answer, body) : []);
    relayHead(ctx, answer);
    if (violations.length > 0) ctx.set(VIOLATIONS_HEADER, violationsHeader(violations));
    (ctx.state.journal as Partial<JournalRecord>).responseBody = credentials.text(
      body.ok ? body.text : `(${body.reason})`,
    );
    relayBody(ctx, answer, options.logger);
  };
}

/** The request body up to `limit` bytes, kept for the journal (a longer one is forwarded, not kept). */
async function readRequest(ctx: Context, limit: number): Promise<BoundedBody> {
  const request = await readUpTo(ctx.req, limit);
  ctx.state.requestBody = request.whole
    ? `(longer than ${limit} bytes: forwarded, not kept)`
    : request.head.toString('utf8');
  return request;
}

function judgeRequest(requests: RequestCheck, ctx: Context, request: BoundedBody): Promise<RequestVerdict> {
  return requests.judge({
    method: ctx.method,
    path: ctx.path,
    query: queryOf(ctx),
    headers: ctx.headers,
    cookie: (name) => ctx.cookies.get(name),
    body: request.head,
    complete: request.whole === undefined,
  });
}

function judgeResponse(
  responses: ResponseCheck,
  ctx: Context,
  verdict: RequestVerdict,
  answer: UpstreamAnswer,
  body: DecodedBody,
): Violation[] {
  const sent = { method: ctx.method, url: ctx.url, headers: {}, body: undefined };
  const received = { status: answer.status, headers: answer.headers, body };
  return responses.judge(verdict.operation!.operation.id, verdict.intent, sent, received);
}

/**
 * The upstream's answer. When there is none, the failure is a violation too, and the problem
 * kennel answers with carries the exchange's violations.
 */
async function forward(
  upstream: Upstream,
  ctx: Context,
  request: BoundedBody,
  settle: (failed: Violation) => Violation[],
): Promise<UpstreamAnswer> {
  const headers = forwardedHeaders(ctx, request);
  const gone = new AbortController();
  ctx.res.once('close', () => {
    if (!ctx.res.writableFinished) gone.abort();
  });
  try {
    return await upstream.forward(
      { method: ctx.method, target: ctx.url, headers, body: request.whole ?? request.head },
      gone.signal,
    );
  } catch (error) {
    // A client that went away broke nothing: no violation, nothing counted.
    if (!(error instanceof ProblemError) || gone.signal.aborted) throw error;
    const failed: Violation = {
      location: 'upstream',
      rule: 'upstream-reachable',
      severity: 'error',
      message: error.message,
    };
    throw new ProblemError(error.status, error.code, error.message, {
      [VIOLATIONS_HEADER]: violationsHeader(settle(failed)),
    });
  }
}

/** Counts, logs and journals the exchange's violations, the request's own credentials hidden everywhere. */
function recordViolations(
  { options, tally }: ProxyParts,
  ctx: Context,
  operation: string,
  found: readonly Violation[],
  credentials: Redactor,
): Violation[] {
  const hide = (text: string) => options.redactor.text(credentials.text(text));
  const violations = capViolations(found).map((violation) => ({ ...violation, message: hide(violation.message) }));
  tally.record(operation, violations);
  const url = credentials.text(ctx.url);
  const journal: Partial<JournalRecord> = { url, requestBody: hide(String(ctx.state.requestBody ?? '')), violations };
  ctx.state.journal = journal;
  if (violations.length > 0 && options.logger.isLevelEnabled('warn'))
    options.logger.warn(
      {
        method: ctx.method,
        url: options.redactor.url(url),
        operationId: ctx.state.operationId,
        violations: violations.map((violation) => `${violation.rule}: ${violation.message}`),
      },
      'exchange breaks the document',
    );
  return violations;
}
