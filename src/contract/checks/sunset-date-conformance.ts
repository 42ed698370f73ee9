import type { PlannedOperation } from '../prepare/plan.js';
import type { CheckFailure, Exchange, ResponseCheck } from '../types.js';
import { parseHttpDate, utcDay } from './http-date.js';
import { failure } from './failure.js';
import { isSuccess } from './response-status.js';

/** The removal the document gives (`x-sunset`): a whole day (`2030-12-05`) or an instant (a date-time). */
export function documentedSunset(operation: PlannedOperation): { day: string } | { time: number } | undefined {
  const value = operation.operation.extensions['x-sunset'];
  if (value instanceof Date) return { day: utcDay(value.getTime()) };
  if (typeof value !== 'string') return undefined;
  if (/^\d{4}-\d{2}-\d{2}$/.test(value.trim())) return { day: value.trim() };
  const time = Date.parse(value);
  return Number.isNaN(time) ? undefined : { time };
}

function describe(sunset: { day: string } | { time: number }): string {
  return 'day' in sunset ? `${sunset.day} (any time that day, UTC)` : new Date(sunset.time).toUTCString();
}

function judge(check: string, exchange: Exchange, header: string): CheckFailure[] {
  const sunset = documentedSunset(exchange.operation);
  const expected = sunset ? `Sunset: an IMF-fixdate of ${describe(sunset)}` : 'Sunset: an IMF-fixdate';
  const date = parseHttpDate(header);
  if (!date)
    return [
      failure(check, 'error', exchange, `Sunset ${JSON.stringify(header)} is not an HTTP-date`, {
        expected,
        actual: header,
      }),
    ];
  const findings: CheckFailure[] = [];
  const right = !sunset || ('day' in sunset ? utcDay(date.time) === sunset.day : date.time === sunset.time);
  if (!right)
    findings.push(
      failure(
        check,
        'error',
        exchange,
        `Sunset announces ${new Date(date.time).toUTCString()}, not the documented removal ${describe(sunset)}`,
        {
          expected,
          actual: header,
        },
      ),
    );
  // Recipients must read the obsolete forms, senders must not write them (RFC 9110 §5.6.7).
  if (date.form !== 'IMF-fixdate')
    findings.push(
      failure(check, 'warning', exchange, `Sunset is written in the obsolete ${date.form} form`, {
        expected,
        actual: header,
      }),
    );
  if (!date.weekdayMatches)
    findings.push(
      failure(check, 'warning', exchange, `Sunset names the wrong day of the week`, { expected, actual: header }),
    );
  return findings;
}

/**
 * A deprecated operation's `Sunset` (RFC 8594) is an HTTP-date of the removal the document gives
 * (`x-sunset`); when a `Deprecation` header is sent but no `Sunset`, the documented date is not
 * announced (a warning: the spec does not require the header).
 */
export const sunsetDateConformance: ResponseCheck = {
  name: 'sunset-date-conformance',
  kind: 'response',
  severity: 'error',
  description: 'a deprecated operation’s Sunset header is an HTTP-date of the documented removal day',
  inspect(_plan, exchange) {
    if (!exchange.operation.deprecated || !exchange.response) return [];
    const header = exchange.response.headers.sunset;
    if (header !== undefined) return judge(this.name, exchange, header);
    const sunset = documentedSunset(exchange.operation);
    if (!sunset || !isSuccess(exchange) || exchange.response.headers.deprecation === undefined) return [];
    return [
      failure(this.name, 'warning', exchange, `Deprecation is sent without the documented Sunset ${describe(sunset)}`, {
        expected: `Sunset: ${describe(sunset)}`,
        actual: '(absent)',
      }),
    ];
  },
};
