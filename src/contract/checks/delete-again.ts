import type { PlannedOperation } from '../prepare/plan.js';
import type { CheckContext, CheckFailure, RequestSpec } from '../types.js';
import { failure } from './failure.js';
import { documentsAny } from './item-actions.js';
import { isSuccess, statusText } from './response-status.js';

/** What the same DELETE sent again showed of the first. */
export interface DeletedAgain {
  failures: CheckFailure[];
  /** The item answered as gone (404 or 410). */
  gone: boolean;
  /** Why the first DELETE's effect stays undecided, when it does. */
  undecided?: string;
}

/**
 * Where nothing reads or lists a collection's items, the same DELETE again is the only sign that
 * the first took effect. DELETE is idempotent in its effect, not its answer (RFC 9110 §9.2.2,
 * §9.3.5): a repeat may say 404 or 2xx. So 404 or 410 shows the item gone; a 2xx is a warning
 * where the DELETE documents 404 or 410 (it tells "not there" apart, and the item should be
 * gone), else the first DELETE's effect is undecided.
 */
export async function deleteAgain(
  context: CheckContext,
  remover: PlannedOperation,
  request: (purpose: string) => RequestSpec,
  item: string,
  check: string,
): Promise<DeletedAgain> {
  const again = await context.send({ ...request(`DELETE of deleted ${item} again`), intent: 'absent' });
  const status = again.response?.status;
  if (status === 404 || status === 410) return { failures: [], gone: true };
  const undecided = `nothing reads or lists the items, and a second DELETE of ${item} answered ${statusText(again)}`;
  if (!isSuccess(again) || !documentsAny(remover, [404, 410])) return { failures: [], gone: false, undecided };
  return {
    failures: [
      failure(check, 'warning', again, `a second DELETE of deleted ${item} answered ${statusText(again)}`, {
        expected: 'the documented 404 or 410: the first DELETE removed the item',
        actual: `${statusText(again)}: the first DELETE may have been lost (or repeated deletes succeed by design)`,
      }),
    ],
    gone: false,
  };
}
