import type { Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Context } from 'koa';
import { ProblemError } from '../../core/problem.js';
import { JSON_CONTENT_TYPE } from '../../http/http-response.js';
import { addPreferenceApplied } from '../routing/operation-hooks.js';
import type { Preferences } from '../../http/prefer.js';
import type { OperationHook } from '../routing/spec-router.js';
import type { ChaosDecision, ChaosEngine } from './chaos-engine.js';
import { preferredChaos, prefersChaos } from './chaos-prefer.js';
import { ChaosSlots } from './chaos-slots.js';
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
  const held = new ChaosSlots(maxHeld);
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

interface Injection {
  held: ChaosSlots;
  /** The `Preference-Applied` value when the chaos was asked for with `Prefer`. */
  applied: string | undefined;
}

async function inject(ctx: Context, decision: ChaosDecision, next: () => Promise<void>, how: Injection) {
  const { fault } = decision;
  const note: ChaosNote = { cause: decision.cause, delayMs: decision.delayMs };
  if (fault) note.fault = faultName(fault);
  ctx.state.chaos = note;
  if (decision.delayMs > 0 && !(await delay(ctx, decision, how.held))) {
    // The client went away while it waited: nothing runs, nothing is answered (status 0).
    ctx.respond = false;
    return;
  }
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
      await hold(ctx.req.socket, fault.holdMs, how.held, clientOf(ctx));
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
      `kennel chaos answered ${fault.status} instead of ${ctx.state.operationId ?? 'the operation'} (${decision.cause})`,
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

/** Who a slot is counted against: the API key that authenticated the request, else its address. */
function clientOf(ctx: Context): string {
  const principal = ctx.state.principal;
  return typeof principal === 'string' ? `key ${principal}` : `address ${ctx.ip}`;
}

/**
 * Sleeps out the decision's delay in a slot (a 503 when none is free for this client); false when
 * the client went away meanwhile: its slot is given back at once, not when the delay would end.
 */
async function delay(ctx: Context, decision: ChaosDecision, slots: ChaosSlots): Promise<boolean> {
  const client = clientOf(ctx);
  const refusal = slots.refusal(client);
  if (refusal)
    throw new ProblemError(
      503,
      'chaos_overloaded',
      `kennel chaos keeps ${refusal}; this one (${decision.cause}, ${decision.delayMs} ms) was not delayed`,
      { 'Retry-After': '1' },
    );
  const release = slots.take(client);
  const gone = new AbortController();
  const onClose = (): void => {
    if (!ctx.res.writableFinished) gone.abort();
  };
  ctx.res.once('close', onClose);
  try {
    await sleep(decision.delayMs, undefined, { signal: gone.signal });
    return true;
  } catch (error) {
    if (gone.signal.aborted) return false;
    throw error;
  } finally {
    release();
    ctx.res.off('close', onClose);
  }
}

/**
 * Holds the request without answering until the client gives up (its connection closes) or
 * `holdMs` passes; then kennel drops the connection itself, so nothing is held for ever. With no
 * slot free for this client, the connection is reset at once.
 */
function hold(socket: Socket, holdMs: number, slots: ChaosSlots, client: string): Promise<void> {
  if (socket.destroyed) return Promise.resolve();
  if (slots.refusal(client)) {
    socket.resetAndDestroy();
    return Promise.resolve();
  }
  const release = slots.take(client);
  return new Promise((resolve) => {
    const done = (): void => {
      clearTimeout(timer);
      release();
      resolve();
    };
    const timer = setTimeout(() => {
      socket.destroy();
      done();
    }, holdMs);
    socket.once('close', done);
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
