/** An HTTP-date as read (RFC 9110 §5.6.7): which form, the instant, and whether its day name is right. */
export interface HttpDate {
  form: 'IMF-fixdate' | 'rfc850-date' | 'asctime-date';
  /** Milliseconds since the epoch, UTC. */
  time: number;
  weekdayMatches: boolean;
}

const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const LONG_DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const TIME = '(\\d{2}):(\\d{2}):(\\d{2})';
const MONTH = `(${MONTHS.join('|')})`;

const FORMS: { form: HttpDate['form']; pattern: RegExp; fields: (match: RegExpExecArray) => string[] }[] = [
  {
    form: 'IMF-fixdate',
    pattern: new RegExp(`^(${DAYS.join('|')}), (\\d{2}) ${MONTH} (\\d{4}) ${TIME} GMT$`),
    fields: (m) => [m[1]!, m[4]!, m[3]!, m[2]!, m[5]!, m[6]!, m[7]!],
  },
  {
    form: 'rfc850-date',
    pattern: new RegExp(`^(${LONG_DAYS.join('|')}), (\\d{2})-${MONTH}-(\\d{2}) ${TIME} GMT$`),
    fields: (m) => [m[1]!.slice(0, 3), m[4]!, m[3]!, m[2]!, m[5]!, m[6]!, m[7]!],
  },
  {
    form: 'asctime-date',
    pattern: new RegExp(`^(${DAYS.join('|')}) ${MONTH} ( \\d|\\d{2}) ${TIME} (\\d{4})$`),
    fields: (m) => [m[1]!, m[7]!, m[2]!, m[3]!.trim(), m[4]!, m[5]!, m[6]!],
  },
];

/** A two-digit rfc850 year is the one nearest to 2000 + yy (RFC 9110 §5.6.7 says: not more than 50 years ahead). */
function fullYear(text: string): number {
  if (text.length === 4) return Number(text);
  const year = 2000 + Number(text);
  return year > 2049 ? year - 100 : year;
}

/** Reads an HTTP-date in any of its three forms (case-sensitive, as the grammar is); undefined if it is none. */
export function parseHttpDate(text: string): HttpDate | undefined {
  for (const { form, pattern, fields } of FORMS) {
    const match = pattern.exec(text.trim());
    if (!match) continue;
    const [dayName, year, month, day, hours, minutes, seconds] = fields(match);
    const values = [
      fullYear(year!),
      MONTHS.indexOf(month!),
      Number(day),
      Number(hours),
      Number(minutes),
      Number(seconds),
    ];
    const [y, mo, d, h, mi, s] = values as [number, number, number, number, number, number];
    // A leap second (60) counts as the last second of its minute; Date.UTC would roll 31 Feb into March.
    const time = Date.UTC(y, mo, d, h, mi, Math.min(s, 59));
    const date = new Date(time);
    if (date.getUTCDate() !== d || h > 23 || mi > 59 || s > 60) return undefined;
    return { form, time, weekdayMatches: DAYS[date.getUTCDay()] === dayName };
  }
  return undefined;
}

/** `2030-12-05`, the UTC calendar day of an instant. */
export function utcDay(time: number): string {
  return new Date(time).toISOString().slice(0, 10);
}
