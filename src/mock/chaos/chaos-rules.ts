import { parseFault, parseLatency, parseProbability, type SyntaxRead } from './chaos-syntax.js';
import {
  DEFAULT_HOLD_MS,
  MAX_HOLD_MS,
  MAX_LATENCY_MS,
  MAX_RULES,
  type ChaosRule,
  type ChaosSettings,
  type Fault,
  type Latency,
} from './chaos-types.js';

export type ChaosRead = { ok: true; settings: ChaosSettings } | { ok: false; pointer: string; reason: string };

class Invalid extends Error {
  constructor(
    readonly pointer: string,
    reason: string,
  ) {
    super(reason);
  }
}

const RULE_KEYS = ['match', 'latency', 'fault', 'probability'];

/**
 * Reads a chaos table (`{seed?, rules: [{match, latency?, fault?, probability?}]}`) from parsed
 * JSON or YAML. Latency and fault take the compact syntax (`100-300ms`, `rate-limit:10/1s`) or
 * the object form `GET /__kennel/chaos` answers with. The first problem is named by JSON pointer.
 */
export function readChaosSettings(value: unknown): ChaosRead {
  try {
    return { ok: true, settings: settingsOf(value) };
  } catch (error) {
    if (error instanceof Invalid) return { ok: false, pointer: error.pointer, reason: error.message };
    throw error;
  }
}

function settingsOf(value: unknown): ChaosSettings {
  const object = plainObject(value, '', 'a chaos table must be an object: {"seed"?: integer, "rules": [...]}');
  onlyKeys(object, ['seed', 'rules'], '');
  const settings: ChaosSettings = { rules: rulesOf(object.rules) };
  if (object.seed !== undefined) {
    const seed = object.seed;
    if (typeof seed !== 'number' || !Number.isSafeInteger(seed) || seed < 0 || seed > 2 ** 31 - 1)
      throw new Invalid('/seed', 'must be an integer from 0 to 2147483647');
    settings.seed = seed;
  }
  return settings;
}

function rulesOf(value: unknown): ChaosRule[] {
  if (!Array.isArray(value)) throw new Invalid('/rules', 'must be a list of rules ([] for none)');
  if (value.length > MAX_RULES) throw new Invalid('/rules', `holds ${value.length} rules; at most ${MAX_RULES}`);
  return value.map((rule, index) => ruleOf(rule, `/rules/${index}`));
}

function ruleOf(value: unknown, at: string): ChaosRule {
  const object = plainObject(value, at, 'a rule must be an object: {match, latency?, fault?, probability?}');
  onlyKeys(object, RULE_KEYS, at);
  const match = object.match ?? '*';
  if (typeof match !== 'string' || match === '' || match.length > 200)
    throw new Invalid(`${at}/match`, 'must be an operationId or "*"');
  const rule = { match } as ChaosRule;
  if (object.latency !== undefined) rule.latency = latencyOf(object.latency, `${at}/latency`);
  if (object.fault !== undefined) rule.fault = faultOf(object.fault, `${at}/fault`);
  rule.probability = object.probability === undefined ? 1 : probabilityOf(object.probability, `${at}/probability`);
  if (!rule.latency && !rule.fault) throw new Invalid(at, 'a rule needs a latency, a fault or both');
  if (rule.fault?.kind === 'rate-limit' && rule.probability !== 1)
    throw new Invalid(`${at}/probability`, 'a rate limit counts every request; it takes no probability');
  return rule;
}

function probabilityOf(value: unknown, at: string): number {
  if (typeof value === 'number' && value >= 0 && value <= 1) return value;
  if (typeof value === 'string') return settled(parseProbability(value), at);
  throw new Invalid(at, 'must be a number from 0 to 1 (or a percentage such as "10%")');
}

function latencyOf(value: unknown, at: string): Latency {
  if (typeof value === 'number') return settled(parseLatency(`${value}ms`), at);
  if (typeof value === 'string') return settled(parseLatency(value), at);
  const object = plainObject(value, at, 'must be a delay such as "200ms", "100-300ms" or an object with a kind');
  const kind = object.kind;
  const latency = ((): Latency => {
    if (kind === 'fixed') return { kind, ms: millis(object, 'ms', at) };
    if (kind === 'uniform') return { kind, minMs: millis(object, 'minMs', at), maxMs: millis(object, 'maxMs', at) };
    if (kind === 'normal') return { kind, meanMs: millis(object, 'meanMs', at), sdMs: millis(object, 'sdMs', at) };
    if (kind === 'exponential') return { kind, meanMs: millis(object, 'meanMs', at) };
    throw new Invalid(`${at}/kind`, 'must be one of: fixed, uniform, normal, exponential');
  })();
  onlyKeys(object, ['kind', ...Object.keys(latency)], at);
  if (latency.kind === 'uniform' && latency.minMs > latency.maxMs)
    throw new Invalid(`${at}/maxMs`, 'must not be less than minMs');
  return latency;
}

function faultOf(value: unknown, at: string): Fault {
  if (typeof value === 'string' || typeof value === 'number') return settled(parseFault(String(value)), at);
  const object = plainObject(value, at, 'must be a fault such as "reset", "503" or an object with a kind');
  const kind = object.kind;
  const fault = ((): Fault => {
    if (kind === 'reset' || kind === 'malformed') return { kind };
    if (kind === 'timeout')
      return { kind, holdMs: object.holdMs === undefined ? DEFAULT_HOLD_MS : holdOf(object.holdMs, `${at}/holdMs`) };
    if (kind === 'status') return { kind, status: statusOf(object.status, `${at}/status`) };
    if (kind === 'rate-limit')
      return {
        kind,
        limit: limitOf(object.limit, `${at}/limit`),
        windowMs: windowOf(object.windowMs, `${at}/windowMs`),
      };
    throw new Invalid(`${at}/kind`, 'must be one of: reset, timeout, malformed, status, rate-limit');
  })();
  onlyKeys(object, ['kind', ...Object.keys(fault)], at);
  return fault;
}

function millis(object: Record<string, unknown>, key: string, at: string): number {
  const value = object[key];
  if (typeof value !== 'number' || !(value >= 0 && value <= MAX_LATENCY_MS))
    throw new Invalid(`${at}/${key}`, `must be a number of milliseconds from 0 to ${MAX_LATENCY_MS}`);
  return value;
}

function holdOf(value: unknown, at: string): number {
  return wholeNumber(value, at, 1, MAX_HOLD_MS, `must be a whole number of milliseconds from 1 to ${MAX_HOLD_MS}`);
}

function statusOf(value: unknown, at: string): number {
  return wholeNumber(value, at, 400, 599, 'must be an HTTP error status from 400 to 599');
}

function limitOf(value: unknown, at: string): number {
  return wholeNumber(value, at, 1, 1_000_000, 'must be a whole number of requests from 1 to 1000000');
}

function windowOf(value: unknown, at: string): number {
  return wholeNumber(value, at, 1, 86_400_000, 'must be a whole number of milliseconds from 1 to 86400000 (one day)');
}

function wholeNumber(value: unknown, at: string, min: number, max: number, reason: string): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max)
    throw new Invalid(at, reason);
  return value;
}

function settled<T>(read: SyntaxRead<T>, at: string): T {
  if (!read.ok) throw new Invalid(at, read.reason);
  return read.value;
}

function plainObject(value: unknown, at: string, reason: string): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Invalid(at, reason);
  return value as Record<string, unknown>;
}

function onlyKeys(object: Record<string, unknown>, allowed: readonly string[], at: string): void {
  const extra = Object.keys(object).find((key) => !allowed.includes(key));
  if (extra === undefined) return;
  const token = extra.slice(0, 40).replace(/~/g, '~0').replace(/\//g, '~1');
  throw new Invalid(`${at}/${token}`, `is not allowed here (fields: ${[...new Set(allowed)].join(', ')})`);
}

/** The first rule whose `match` names no operation of the document, as a located problem. */
export function unmatchedRule(
  settings: ChaosSettings,
  operationIds: readonly string[],
): { pointer: string; index: number; reason: string } | undefined {
  const index = settings.rules.findIndex((rule) => rule.match !== '*' && !operationIds.includes(rule.match));
  if (index < 0) return undefined;
  const known = operationIds.length > 0 ? operationIds.join(', ') : 'none';
  return {
    pointer: `/rules/${index}/match`,
    index,
    reason: `no operation ${JSON.stringify(settings.rules[index]!.match)} in the document (operations: ${known}, or "*")`,
  };
}
