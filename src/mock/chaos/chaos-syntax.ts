import { readDuration } from '../../core/duration.js';
import {
  DEFAULT_HOLD_MS,
  MAX_HOLD_MS,
  MAX_LATENCY_MS,
  type ChaosRule,
  type Fault,
  type Latency,
} from './chaos-types.js';

// The compact syntax of chaos, shared by the flags (`--latency getPet:100-300ms`,
// `--fault getPet:reset:0.1`), the chaos file's strings and `Prefer: fault=…`.

export type SyntaxRead<T> = { ok: true; value: T } | { ok: false; reason: string };

const ok = <T>(value: T): SyntaxRead<T> => ({ ok: true, value });
const no = <T>(reason: string): SyntaxRead<T> => ({ ok: false, reason });

const LATENCY_FORMS = '200ms, 100-300ms, 100ms-2s, normal:200ms:50ms or exponential:100ms';
const FAULT_FORMS =
  'reset, timeout, timeout:10s, malformed, a status from 400 to 599, or rate-limit:LIMIT/WINDOW (10/1s)';
const DISTRIBUTIONS: Record<string, 'normal' | 'exponential'> = {
  normal: 'normal',
  exponential: 'exponential',
  exp: 'exponential',
};

function quote(text: string): string {
  return JSON.stringify(text.length > 40 ? `${text.slice(0, 37)}...` : text);
}

/** A delay of at most MAX_LATENCY_MS, with its unit (`200ms`, `1.5s`). */
function delayOf(text: string): number | undefined {
  const read = readDuration(text);
  return read.ok && read.ms <= MAX_LATENCY_MS ? read.ms : undefined;
}

/** `200ms` fixed, `100-300ms` or `100ms-2s` uniform, `normal:MEAN:SD`, `exponential:MEAN`. */
export function parseLatency(text: string): SyntaxRead<Latency> {
  const bad = no<Latency>(`${quote(text)} is not a delay: use ${LATENCY_FORMS} (at most ${MAX_LATENCY_MS / 1000}s)`);
  const [head = '', ...rest] = text.trim().split(':');
  const distribution = DISTRIBUTIONS[head.toLowerCase()];
  if (distribution === 'normal' && rest.length === 2) {
    const [meanMs, sdMs] = rest.map(delayOf);
    return meanMs === undefined || sdMs === undefined ? bad : ok({ kind: 'normal', meanMs, sdMs });
  }
  if (distribution === 'exponential' && rest.length === 1) {
    const meanMs = delayOf(rest[0]!);
    return meanMs === undefined ? bad : ok({ kind: 'exponential', meanMs });
  }
  if (rest.length > 0) return bad;
  const range = /^(\d+(?:\.\d+)?)(ms|s|m)?-(\d+(?:\.\d+)?(?:ms|s|m))$/.exec(head);
  if (range) {
    const maxMs = delayOf(range[3]!);
    const minMs = delayOf(`${range[1]}${range[2] ?? /[a-z]+$/.exec(range[3]!)![0]}`);
    if (minMs === undefined || maxMs === undefined) return bad;
    if (minMs > maxMs) return no(`${quote(text)}: the range must go from low to high`);
    return ok({ kind: 'uniform', minMs, maxMs });
  }
  const ms = delayOf(head);
  return ms === undefined ? bad : ok({ kind: 'fixed', ms });
}

/** `reset`, `timeout`, `timeout:10s`, `malformed`, `503`, `rate-limit:10/1s`. */
export function parseFault(text: string): SyntaxRead<Fault> {
  const bad = no<Fault>(`${quote(text)} is not a fault: use ${FAULT_FORMS}`);
  const [kind = '', ...rest] = text.trim().split(':');
  const name = kind.toLowerCase();
  if ((name === 'reset' || name === 'malformed') && rest.length === 0) return ok({ kind: name });
  if (name === 'timeout' && rest.length <= 1) {
    if (rest.length === 0) return ok({ kind: 'timeout', holdMs: DEFAULT_HOLD_MS });
    const read = readDuration(rest[0]);
    if (!read.ok || read.ms < 1 || read.ms > MAX_HOLD_MS)
      return no(`${quote(text)}: a timeout holds a request from 1ms to ${MAX_HOLD_MS / 1000}s (timeout:30s)`);
    return ok({ kind: 'timeout', holdMs: read.ms });
  }
  if (/^\d{3}$/.test(name) && rest.length === 0) {
    const status = Number(name);
    return status >= 400 && status <= 599 ? ok({ kind: 'status', status }) : bad;
  }
  if (name === 'rate-limit' && rest.length === 1) return parseRateLimit(text, rest[0]!);
  return bad;
}

function parseRateLimit(text: string, value: string): SyntaxRead<Fault> {
  const match = /^(\d+)\/(\d+(?:\.\d+)?(?:ms|s|m|h)|s|m|h)$/.exec(value.trim());
  const limit = Number(match?.[1]);
  const window = match ? readDuration(/^\d/.test(match[2]!) ? match[2] : `1${match[2]}`) : undefined;
  if (!match || !window?.ok || window.ms < 1 || window.ms > 86_400_000 || !(limit >= 1 && limit <= 1_000_000))
    return no(
      `${quote(text)}: a rate limit is rate-limit:LIMIT/WINDOW, such as rate-limit:10/1s (1 to 1000000 per 1ms to 24h)`,
    );
  return ok({ kind: 'rate-limit', limit, windowMs: window.ms });
}

/** `0.1`, `1`, `10%`: a chance from 0 to 1. */
export function parseProbability(text: string): SyntaxRead<number> {
  const trimmed = text.trim();
  const percent = /^(\d+(?:\.\d+)?)%$/.exec(trimmed);
  const value = percent ? Number(percent[1]) / 100 : /^(\d+(\.\d+)?|\.\d+)$/.test(trimmed) ? Number(trimmed) : NaN;
  return value >= 0 && value <= 1 ? ok(value) : no(`${quote(text)} is not a probability: use 0.1 or 10% (0 to 1)`);
}

function isLatencyStart(token: string): boolean {
  return DISTRIBUTIONS[token.toLowerCase()] !== undefined || /^\d/.test(token);
}

function isFaultStart(token: string): boolean {
  return ['reset', 'timeout', 'malformed', 'rate-limit'].includes(token.toLowerCase()) || /^\d{3}$/.test(token);
}

/** Splits `[OPERATION:]REST` where REST starts with a token `isStart` recognises. */
function splitOperation(text: string, isStart: (token: string) => boolean): { match: string; tokens: string[] } {
  const tokens = text.trim().split(':');
  if (tokens.length > 1 && !isStart(tokens[0]!)) return { match: tokens[0]!, tokens: tokens.slice(1) };
  return { match: '*', tokens };
}

/** How many tokens a latency or fault spans, from its first one. */
function spanOf(tokens: readonly string[]): number {
  const first = tokens[0]!.toLowerCase();
  if (first === 'normal') return 3;
  if (DISTRIBUTIONS[first] || first === 'rate-limit') return 2;
  if (first === 'timeout' && tokens[1] !== undefined && /^\d+(\.\d+)?(ms|s|m|h)/.test(tokens[1])) return 2;
  return 1;
}

function ruleFromFlag(
  text: string,
  isStart: (token: string) => boolean,
  build: (part: string) => SyntaxRead<Partial<ChaosRule>>,
): SyntaxRead<ChaosRule> {
  const { match, tokens } = splitOperation(text, isStart);
  if (match === '' || tokens.length === 0 || tokens[0] === '') return no(`${quote(text)}: nothing after the operation`);
  const span = spanOf(tokens);
  const rest = tokens.slice(span);
  if (rest.length > 1) return no(`${quote(text)}: too many parts after ${quote(tokens.slice(0, span).join(':'))}`);
  const part = build(tokens.slice(0, span).join(':'));
  if (!part.ok) return part;
  const probability = rest.length === 1 ? parseProbability(rest[0]!) : ok(1);
  if (!probability.ok) return probability;
  return ok({ match, ...part.value, probability: probability.value });
}

/** `--latency [OPERATION:]DELAY[:PROBABILITY]`, e.g. `100-300ms` or `getPet:2s:10%`. */
export function latencyFlag(text: string): SyntaxRead<ChaosRule> {
  return ruleFromFlag(text, isLatencyStart, (part) => {
    const latency = parseLatency(part);
    return latency.ok ? ok({ latency: latency.value }) : latency;
  });
}

/** `--fault [OPERATION:]FAULT[:PROBABILITY]`, e.g. `getPet:reset:0.1` or `503:5%`. */
export function faultFlag(text: string): SyntaxRead<ChaosRule> {
  const rule = ruleFromFlag(text, isFaultStart, (part) => {
    const fault = parseFault(part);
    return fault.ok ? ok({ fault: fault.value }) : fault;
  });
  if (rule.ok && rule.value.fault?.kind === 'rate-limit' && rule.value.probability !== 1)
    return no(`${quote(text)}: a rate limit counts every request; it takes no probability`);
  return rule;
}

/** `100-300ms`, `normal:200ms:50ms`: a latency in the compact syntax. */
export function describeLatency(latency: Latency): string {
  if (latency.kind === 'fixed') return `${latency.ms}ms`;
  if (latency.kind === 'uniform') return `${latency.minMs}-${latency.maxMs}ms`;
  if (latency.kind === 'normal') return `normal:${latency.meanMs}ms:${latency.sdMs}ms`;
  return `exponential:${latency.meanMs}ms`;
}

/** `reset`, `503`, `rate-limit:10/1000ms`: a fault in the compact syntax. */
export function describeFault(fault: Fault): string {
  if (fault.kind === 'status') return String(fault.status);
  if (fault.kind === 'timeout') return `timeout:${fault.holdMs}ms`;
  if (fault.kind === 'rate-limit') return `rate-limit:${fault.limit}/${fault.windowMs}ms`;
  return fault.kind;
}
