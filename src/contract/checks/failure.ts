import { stringifyJson } from '../../core/json.js';
import type { CheckFailure, Exchange, Severity } from '../types.js';

/** A failure of `check` about `exchange`'s operation. */
export function failure(
  check: string,
  severity: Severity,
  exchange: Exchange | undefined,
  title: string,
  details: Partial<CheckFailure> = {},
): CheckFailure {
  return {
    check,
    severity,
    operationId: exchange?.operation.id ?? details.operationId ?? '?',
    title,
    exchange,
    ...details,
  };
}

/** JSON text of a value for messages, bigint-safe and short. */
export function show(value: unknown, max = 300): string {
  const text = value === undefined ? 'undefined' : stringifyJson(value);
  return text.length > max ? `${text.slice(0, max)}…` : text;
}
