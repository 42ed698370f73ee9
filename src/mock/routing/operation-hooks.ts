import type { Context } from 'koa';

/** Adds `applied` to the response's `Preference-Applied`, after what the handler already listed. */
export function addPreferenceApplied(ctx: Context, applied: string): void {
  const present = ctx.response.get('Preference-Applied');
  ctx.set('Preference-Applied', present ? `${present}, ${applied}` : applied);
}
