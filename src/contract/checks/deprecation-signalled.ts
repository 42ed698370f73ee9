import type { CheckFailure, Exchange, ResponseCheck } from '../types.js';
import { parseHttpDate } from './http-date.js';
import { failure } from './failure.js';
import { isSuccess } from './response-status.js';

/** The instant of an RFC 9745 `Deprecation` value (a structured-field date, `@1735689600`), in ms. */
export function deprecationTime(value: string): number | undefined {
  const match = /^@(-?\d{1,15})$/.exec(value.trim());
  return match ? Number(match[1]) * 1000 : undefined;
}

/** The value is an RFC 9745 date, and not later than the Sunset (RFC 9745 §3: it SHOULD NOT be). */
function deprecationValue(check: string, exchange: Exchange, value: string): CheckFailure[] {
  const time = deprecationTime(value);
  // `true` and HTTP-dates come from the drafts before RFC 9745, still common: a warning.
  if (time === undefined)
    return [
      failure(check, 'warning', exchange, `Deprecation ${JSON.stringify(value)} is not an RFC 9745 date`, {
        expected: 'Deprecation: @<seconds since 1970> (a structured-field date)',
        actual: value,
      }),
    ];
  const sunset = exchange.response!.headers.sunset;
  const removal = sunset === undefined ? undefined : parseHttpDate(sunset)?.time;
  if (removal === undefined || time <= removal) return [];
  return [
    failure(check, 'warning', exchange, 'Deprecation is dated after the Sunset', {
      expected: 'a Deprecation date no later than the Sunset',
      actual: `Deprecation: ${value}; Sunset: ${sunset}`,
    }),
  ];
}

/**
 * Successful answers of a deprecated operation announce it (RFC 9745 Deprecation or RFC 8594
 * Sunset); a Deprecation value is an RFC 9745 date no later than the Sunset.
 */
export const deprecationSignalled: ResponseCheck = {
  name: 'deprecation-signalled',
  kind: 'response',
  severity: 'warning',
  description: 'deprecated operations send Deprecation or Sunset headers',
  inspect(_plan, exchange) {
    if (!exchange.operation.deprecated || !exchange.response) return [];
    const headers = exchange.response.headers;
    if (headers.deprecation !== undefined) return deprecationValue(this.name, exchange, headers.deprecation);
    if (headers.sunset !== undefined || !isSuccess(exchange)) return [];
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
