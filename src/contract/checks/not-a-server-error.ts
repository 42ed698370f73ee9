import type { ResponseCheck } from '../types.js';
import { failure } from './failure.js';
import { statusText } from './response-status.js';

/**
 * No request, however wrong, may get a 5xx or no answer at all, whichever check sent it. The title
 * names only the status (or the network failure), so an intermittent fault is one finding per
 * operation and status however many exchanges it hit; the first example says which request.
 */
export const notAServerError: ResponseCheck = {
  name: 'not-a-server-error',
  kind: 'response',
  severity: 'error',
  description: 'no request gets a 5xx status or no response',
  inspect(_plan, exchange) {
    if (exchange.error)
      return [
        failure(this.name, this.severity, exchange, `no response: ${exchange.error}`, {
          expected: 'an HTTP response',
          actual: `${exchange.error}, for ${exchange.purpose}`,
        }),
      ];
    const status = exchange.response!.status;
    if (status < 500) return [];
    return [
      failure(this.name, this.severity, exchange, `server error ${status}`, {
        expected: 'a status below 500',
        actual: `${statusText(exchange)} for ${exchange.purpose}`,
      }),
    ];
  },
};
