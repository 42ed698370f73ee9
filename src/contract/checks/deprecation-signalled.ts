import type { ResponseCheck } from '../types.js';
import { failure, isSuccess } from './support.js';

/** Successful answers of a deprecated operation announce it (RFC 9745 Deprecation or RFC 8594 Sunset). */
export const deprecationSignalled: ResponseCheck = {
  name: 'deprecation-signalled',
  kind: 'response',
  severity: 'warning',
  description: 'deprecated operations send Deprecation or Sunset headers',
  inspect(_plan, exchange) {
    if (!exchange.operation.deprecated || !isSuccess(exchange)) return [];
    const headers = exchange.response!.headers;
    if (headers.deprecation !== undefined || headers.sunset !== undefined) return [];
    return [
      failure(
        this.name,
        this.severity,
        exchange,
        `deprecated ${exchange.operation.id} answered without a Deprecation or Sunset header`,
        { expected: 'Deprecation and/or Sunset header', actual: '(neither)' },
      ),
    ];
  },
};
