import type { Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Context } from 'koa';
import { ProblemError } from '../../core/problem.js';
import { JSON_CONTENT_TYPE } from '../../http/http-response.js';
import { addPreferenceApplied } from '../operation-hooks.js';
import type { Preferences } from '../../http/prefer.js';
import type { OperationHook } from '../spec-router.js';
import type { ChaosDecision, ChaosEngine } from './chaos-engine.js';
import { preferredChaos, prefersChaos } from './chaos-prefer.js';
import { MAX_HELD, type Fault } from './chaos-types.js';

/** How much of the Authorization header tells callers apart for rate limits. */
const CALLER_CHARS = 256;

/** What the journal shows of the chaos a request met (`ctx.state.chaos`). */
export interface ChaosNote {
  cause: string;
  delayMs: number;
  fault?: string;
}

function faultName(fault: Fault): string {
  return fault.kind === 'status' ? String(fault.status) : fault.kind;
}

function applied(preferences: Preferences): string {
  const parts: string[] = [];
  if (preferences.delay !== undefined) parts.push(`delay=${preferences.delay}`);
  if (preferences.fault !== undefined) parts.push(`fault=${preferences.fault}`);
  return parts.join(', ');
}

/**
 * Chaos around every operation: the rules table (`--chaos`, `--latency`, `--fault`,
 * `/__kennel/chaos`) or the request's own `Prefer: delay=…, fault=…`. With an empty table and no
 * such preference it costs one check. Admin routes never pass through here.
 */
export function chaosHook(engine: ChaosEngine, maxHeld = MAX_HELD): OperationHook {
  // One count for delays and `timeout` holds: either keeps a request (and its socket) open.
  const held = { count: 0, max: maxHeld };
  return (ctx, operation, preferences, next) => {
    const wanted = prefersChaos(preferences);
    if (!engine.active && !wanted) return next();
    let decision: ChaosDecision | undefined;
    if (wanted) {
      const read = preferredChaos(preferences);
      if (!read.ok) throw new ProblemError(400, 'invalid_prefer', read.reason);
      decision = read.value;
    } else decision = engine.decide(operation.id, ctx.get('authorization').slice(0, CALLER_CHARS));
    if (!decision) return next();
    return inject(ctx, decision, next, { held, applied: wanted ? applied(preferences) : undefined });
  };
}

interface Held {
  count: number;
  max: number;
}

interface Injection {
  held: Held;
  /** The `Preference-Applied` value when the chaos was asked for with `Prefer`. */
  applied: string | undefined;
}

async function inject(ctx: Context, decision: ChaosDecision, next: () => Promise<void>, how: Injection) {
  const { fault } = decision;
  const note: ChaosNote = { cause: decision.cause, delayMs: decision.delayMs };
  if (fault) note.fault = faultName(fault);
  ctx.state.chaos = note;
  if (decision.delayMs > 0) await delay(decision, how.held);
  const headers: Record<string, string> = how.applied ? { 'Preference-Applied': how.applied } : {};
  switch (fault?.kind) {
    case undefined:
      await next();
      break;
    case 'reset':
      // An RST, not a FIN: the client sees ECONNRESET, as when a proxy or a crashed server drops it.
      ctx.respond = false;
      ctx.req.socket.resetAndDestroy();
      return;
    case 'timeout':
      ctx.respond = false;
      // Read and drop the body: a request left unread would meet Node's requestTimeout (a 408).
      ctx.req.resume();
      await hold(ctx.req.socket, fault.holdMs, how.held);
      return;
    case 'status':
    case 'rate-limit':
      throw faultProblem(ctx, decision, fault, headers);
    case 'malformed':
      await next();
      malform(ctx);
      break;
  }
  if (how.applied) addPreferenceApplied(ctx, how.applied);
}

/** The problem an injected status or rate-limit fault answers with. */
function faultProblem(
  ctx: Context,
  decision: ChaosDecision,
  fault: Extract<Fault, { kind: 'status' | 'rate-limit' }>,
  headers: Record<string, string>,
): ProblemError {
  if (fault.kind === 'status')
    return new ProblemError(
      fault.status,
      'injected_fault',
      `kennel chaos answered ${fault.status} instead of ${ctx.state.operationId as string} (${decision.cause})`,
      headers,
    );
  const seconds = decision.retryAfterS ?? 1;
  const why =
    fault.limit > 0
      ? `: at most ${fault.limit} per ${fault.windowMs} ms (kennel chaos, ${decision.cause})`
      : ' (kennel chaos, Prefer: fault=rate-limit)';
  return new ProblemError(429, 'rate_limited', `Too many requests${why}; retry after ${seconds} s`, {
    ...headers,
    'Retry-After': String(seconds),
  });
}

/** Sleeps out the decision's delay, unless `held.max` requests are already kept waiting: then a 503. */
async function delay(decision: ChaosDecision, held: Held): Promise<void> {
  if (held.count >= held.max)
    throw new ProblemError(
      503,
      'chaos_overloaded',
      `kennel chaos keeps at most ${held.max} requests delayed or held at once; this one (${decision.cause}, ${decision.delayMs} ms) was not delayed`,
      { 'Retry-After': '1' },
    );
  held.count += 1;
  try {
    await sleep(decision.delayMs);
  } finally {
    held.count -= 1;
  }
}

/**
 * Holds the request without answering until the client gives up (its connection closes) or
 * `holdMs` passes; then kennel drops the connection itself, so nothing is held for ever.
 */
function hold(socket: Socket, holdMs: number, held: Held): Promise<void> {
  if (socket.destroyed) return Promise.resolve();
  if (held.count >= held.max) {
    socket.resetAndDestroy();
    return Promise.resolve();
  }
  held.count += 1;
  return new Promise((resolve) => {
    let done = false;
    const release = (): void => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      held.count -= 1;
      resolve();
    };
    const timer = setTimeout(() => {
      socket.destroy();
      release();
    }, holdMs);
    socket.once('close', release);
  });
}

/**
 * Cuts the answer's body in half (never leaving valid JSON): the status and headers a client
 * expects, a body its parser chokes on. A body-less answer becomes a 200 with a cut `{"`.
 */
function malform(ctx: Context): void {
  const body: unknown = ctx.body;
  const text =
    typeof body === 'string'
      ? body
      : Buffer.isBuffer(body)
        ? body.toString('utf8')
        : body === null || body === undefined
          ? ''
          : (JSON.stringify(body) ?? '');
  let cut = text.length > 1 ? text.slice(0, Math.floor(text.length / 2)) : '{"';
  if (isJson(cut)) cut += ',';
  if (text === '' || ctx.status === 204 || ctx.status === 304) ctx.status = 200;
  if (!ctx.response.get('Content-Type')) ctx.set('Content-Type', JSON_CONTENT_TYPE);
  ctx.body = cut;
}

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}
