import { readDuration } from '../../core/duration.js';
import type { Preferences } from '../../http/prefer.js';
import type { ChaosDecision } from './chaos-engine.js';
import { parseFault, type SyntaxRead } from './chaos-syntax.js';
import { MAX_LATENCY_MS } from './chaos-types.js';

/** True when the request asks for chaos itself (`Prefer: delay=…` or `fault=…`). */
export function prefersChaos(preferences: Preferences): boolean {
  return preferences.delay !== undefined || preferences.fault !== undefined;
}

/** `delay=200` (milliseconds) or `delay=2s`. */
function delayOf(text: string): SyntaxRead<number> {
  const read = readDuration(/^\d+(\.\d+)?$/.test(text) ? `${text}ms` : text);
  if (!read.ok || read.ms > MAX_LATENCY_MS)
    return { ok: false, reason: `Prefer: delay=${text} must be milliseconds (200) or a duration (2s) up to 60s` };
  return { ok: true, value: read.ms };
}

function retryAfterOf(text: string | undefined): SyntaxRead<number> {
  if (text === undefined) return { ok: true, value: 1 };
  const value = Number(text);
  if (!/^\d+$/.test(text) || value < 1 || value > 86_400)
    return { ok: false, reason: `Prefer: retry-after=${text} must be whole seconds from 1 to 86400` };
  return { ok: true, value };
}

/** `reset`, `timeout`, `malformed`, `503`, `status=503`, `rate-limit` (with `retry-after=N`). */
function faultOf(
  text: string,
  retryAfter: string | undefined,
): SyntaxRead<Pick<ChaosDecision, 'fault' | 'retryAfterS'>> {
  const name = text.toLowerCase().replace(/^status=/, '');
  if (name === 'rate-limit') {
    const seconds = retryAfterOf(retryAfter);
    if (!seconds.ok) return seconds;
    return {
      ok: true,
      value: { fault: { kind: 'rate-limit', limit: 0, windowMs: seconds.value * 1000 }, retryAfterS: seconds.value },
    };
  }
  const fault = /^[a-z]+$|^\d{3}$/.test(name) ? parseFault(name) : undefined;
  if (!fault?.ok)
    return {
      ok: false,
      reason: `Prefer: fault=${text} is not a fault: use reset, timeout, malformed, rate-limit or a status from 400 to 599`,
    };
  return { ok: true, value: { fault: fault.value } };
}

/**
 * The chaos a request asks for with `Prefer`; it replaces the rules table for that request (and
 * draws nothing from its PRNG, so the sequence other requests meet does not shift).
 */
export function preferredChaos(preferences: Preferences): SyntaxRead<ChaosDecision> {
  let delayMs = 0;
  if (preferences.delay !== undefined) {
    const delay = delayOf(preferences.delay);
    if (!delay.ok) return delay;
    delayMs = delay.value;
  }
  if (preferences.fault === undefined) return { ok: true, value: { delayMs, fault: undefined, cause: 'Prefer' } };
  const fault = faultOf(preferences.fault, preferences.retryAfter);
  if (!fault.ok) return fault;
  return { ok: true, value: { delayMs, cause: 'Prefer', ...fault.value } };
}
