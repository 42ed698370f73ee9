import { ToolError } from '../../core/tool-error.js';
import type { CheckPlan } from '../prepare/plan.js';
import type { CaseResult } from './run-types.js';

/** A run without a key is fine until an operation it checks requires credentials: then say which. */
export function assertCredentials(plan: CheckPlan, apiKey: string): void {
  if (apiKey !== '') return;
  const needing = plan.operations.filter((operation) => operation.requiresAuth).map((operation) => operation.id);
  if (needing.length === 0) return;
  const shown = needing.slice(0, 5).join(', ') + (needing.length > 5 ? `, … (${needing.length} in all)` : '');
  throw new ToolError(
    `--api-key is required (or KENNEL_API_KEY): ${needing.length === 1 ? 'an operation' : `${needing.length} operations`} to check require${needing.length === 1 ? 's' : ''} credentials (${shown}); or leave them out with --operation/--tag`,
  );
}

/**
 * Why a run sent no request at all, from its cases' skip reasons (the commonest first): a run that
 * judged nothing must not say the deployment conforms.
 */
export function nothingSentReason(cases: readonly CaseResult[]): string {
  const counts = new Map<string, number>();
  for (const result of cases)
    if (result.skipReason && result.skipReason !== 'no request reached this operation')
      counts.set(result.skipReason, (counts.get(result.skipReason) ?? 0) + 1);
  // A choice of the user's (--read-only) is what they can change: it comes first, then the commonest.
  const chosen = (reason: string) => Number(reason.startsWith('read-only run'));
  const reasons = [...counts.entries()].sort((a, b) => chosen(b[0]) - chosen(a[0]) || b[1] - a[1]).slice(0, 3);
  const why = reasons.map(([reason, count]) => `${reason} (${count}×)`).join('; ');
  return `no request was sent, so nothing was judged: no check applied to any selected operation${why ? ` — ${why}` : ''}`;
}
