import type { Context } from 'koa';
import type { OperationHook } from './spec-router.js';

/** One hook made of several, the first outermost. */
export function chainHooks(...hooks: OperationHook[]): OperationHook {
  return hooks.reduceRight<OperationHook>(
    (inner, outer) => (ctx, operation, preferences, next) =>
      outer(ctx, operation, preferences, () => inner(ctx, operation, preferences, next)),
    (_ctx, _operation, _preferences, next) => next(),
  );
}

/** Adds `applied` to the response's `Preference-Applied`, after what the handler already listed. */
export function addPreferenceApplied(ctx: Context, applied: string): void {
  const present = ctx.response.get('Preference-Applied');
  ctx.set('Preference-Applied', present ? `${present}, ${applied}` : applied);
}
