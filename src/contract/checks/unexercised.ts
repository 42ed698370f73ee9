import { outcomeOf, tallyText } from './coverage.js';
import type { Exchange } from '../types.js';
import { isSuccess } from './response-status.js';

/**
 * Why a check that needed a 2xx got none, in words: `none of 12 creates answered 2xx: 400 ×10,
 * 404 ×2`, `the create answered 400`. `noun` names one request (`create`), `plural` several.
 */
export function noSuccessReason(exchanges: readonly Exchange[], noun: string, plural = `${noun}s`): string {
  if (exchanges.length === 0) return `no ${noun} was sent`;
  if (exchanges.length === 1) return `the ${noun} answered ${tallyOf(exchanges)}`;
  return `none of ${exchanges.length} ${plural} answered 2xx: ${tallyOf(exchanges)}`;
}

/** What `exchanges` got: `400 ×10, 404 ×2`. */
export function tallyOf(exchanges: readonly Exchange[]): string {
  const tally = new Map<string, number>();
  for (const exchange of exchanges) {
    const outcome = outcomeOf(exchange);
    tally.set(outcome, (tally.get(outcome) ?? 0) + 1);
  }
  return tallyText(tally);
}

/** The reason when none of `exchanges` succeeded, else undefined (the check was exercised). */
export function unexercisedUnlessSuccess(
  exchanges: readonly Exchange[],
  noun: string,
  plural?: string,
): string | undefined {
  return exchanges.some(isSuccess) ? undefined : noSuccessReason(exchanges, noun, plural);
}

/** Why creates gave no id to follow: none succeeded, or those that did returned no `idProperty`. */
export function noIdReason(exchanges: readonly Exchange[], idProperty: string): string {
  const succeeded = exchanges.filter(isSuccess).length;
  return succeeded === 0
    ? noSuccessReason(exchanges, 'create')
    : `${succeeded} of ${exchanges.length} creates answered 2xx, none with its ${idProperty}: ${tallyOf(exchanges)}`;
}

/** Why a check that needed the list read as an array got none: `the list answered 401`. */
export function notAList(exchange: Exchange): string {
  return isSuccess(exchange)
    ? `${exchange.operation.id} answered ${outcomeOf(exchange)} without an array of items`
    : `${exchange.operation.id} answered ${outcomeOf(exchange)}`;
}
