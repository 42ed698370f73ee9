import type { Clock } from '../../core/clock.js';
import { readInstant } from '../../core/instant.js';
import { ProblemError } from '../../core/problem.js';
import type { LoadedDocument } from '../../openapi/load.js';
import type { Operation } from '../../openapi/operations.js';
import { replacementOf, sunsetOf } from '../respond/deprecation.js';
import { addPreferenceApplied } from '../routing/operation-hooks.js';
import type { OperationHook } from '../routing/spec-router.js';
import type { AfterSunset } from './after-sunset.js';

/** The 410 of a removed operation: its removal date and, when the document names one, its replacement. */
function goneProblem(operation: Operation, at: number, document: Pick<LoadedDocument, 'operations' | 'basePath'>) {
  const name = `${operation.method.toUpperCase()} ${document.basePath}${operation.path}`;
  const replacement = replacementOf(operation, document.operations);
  const note = (operation.extensions['x-replaced-by'] as { description?: unknown } | undefined)?.description;
  const instead = replacement
    ? `; use ${replacement.method.toUpperCase()} ${document.basePath}${replacement.path} (${replacement.id}${typeof note === 'string' ? `: ${note}` : ''})`
    : '';
  const day = new Date(at).toISOString().replace('T00:00:00.000Z', '');
  return (applied: string | undefined) =>
    new ProblemError(
      410,
      'gone',
      `${name} (${operation.id}) was removed on ${day}${instead}`,
      applied ? { 'Preference-Applied': applied } : {},
    );
}

/**
 * Answers a deprecated operation with 410 Gone once "now" (the mock's clock, or this request's
 * `Prefer: now=…`) reaches its `x-sunset`. The deprecation headers (`Sunset`, the `Link` to the
 * successor) are already on the response, so the 410 keeps them. `keep` leaves removal out.
 */
export function sunsetHook(
  document: Pick<LoadedDocument, 'operations' | 'basePath'>,
  clock: Clock,
  after: AfterSunset,
): OperationHook {
  const removals = new Map<Operation, { at: number; gone: ReturnType<typeof goneProblem> }>();
  for (const operation of document.operations) {
    const at = sunsetOf(operation);
    if (at !== undefined && after === 'gone')
      removals.set(operation, { at, gone: goneProblem(operation, at, document) });
  }
  return (ctx, operation, preferences, next) => {
    if (preferences.now === undefined) {
      const removal = removals.get(operation);
      if (removal && clock.now() >= removal.at) throw removal.gone(undefined);
      return next();
    }
    const instant = readInstant(preferences.now);
    if (!instant.ok) throw new ProblemError(400, 'invalid_prefer', `Prefer: now: ${instant.reason}`);
    const applied = `now=${preferences.now}`;
    const removal = removals.get(operation);
    if (removal && instant.ms >= removal.at) throw removal.gone(applied);
    return next().then(() => addPreferenceApplied(ctx, applied));
  };
}
