import { valueAt } from '../../openapi/json-pointer.js';
import type { CheckPlan, PlannedOperation } from '../prepare/plan.js';
import type { ResponseCheck } from '../types.js';
import { failure } from './failure.js';

const HEADERS = ['deprecation', 'sunset'] as const;

/** Whether the operation has a parameter the document deprecates (a server may announce that instead). */
function deprecatesAParameter(plan: CheckPlan, operation: PlannedOperation): boolean {
  const pathItem = valueAt(plan.document.dereferenced, operation.operation.pointer.replace(/\/[^/]+$/, ''));
  const own = valueAt(plan.document.dereferenced, operation.operation.pointer) as { parameters?: unknown } | undefined;
  const shared = (pathItem as { parameters?: unknown } | undefined)?.parameters;
  return [own?.parameters, shared].some(
    (list) =>
      Array.isArray(list) && list.some((parameter) => (parameter as { deprecated?: unknown })?.deprecated === true),
  );
}

/**
 * `Deprecation` (RFC 9745) and `Sunset` (RFC 8594) appear on the operations the document
 * deprecates only: on any other, they announce a removal the document does not.
 */
export const deprecationHeadersScoped: ResponseCheck = {
  name: 'deprecation-headers-scoped',
  kind: 'response',
  severity: 'error',
  description: 'Deprecation and Sunset headers appear only on operations the document deprecates',
  inspect(plan, exchange) {
    if (exchange.operation.deprecated || !exchange.response) return [];
    const sent = HEADERS.filter((name) => exchange.response!.headers[name] !== undefined);
    if (sent.length === 0) return [];
    const severity = deprecatesAParameter(plan, exchange.operation) ? 'warning' : this.severity;
    const shown = sent.map(
      (name) => `${name === 'sunset' ? 'Sunset' : 'Deprecation'}: ${exchange.response!.headers[name]}`,
    );
    return [
      failure(
        this.name,
        severity,
        exchange,
        `${sent.map((name) => (name === 'sunset' ? 'Sunset' : 'Deprecation')).join(' and ')} on ${exchange.operation.id}, which the document does not deprecate`,
        { expected: 'no Deprecation or Sunset header', actual: shown.join('; ') },
      ),
    ];
  },
};
