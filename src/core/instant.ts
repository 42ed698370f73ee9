export type InstantRead = { ok: true; ms: number } | { ok: false; reason: string };

const FORM = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,3}))?)?(Z|[+-]\d{2}:\d{2}))?$/;

function quoted(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 40 ? `${text.slice(0, 37)}...` : text;
}

/**
 * `2030-12-06` (midnight UTC) or `2030-12-06T09:30:00Z` / `…+01:00` → epoch milliseconds. A
 * date-time without a zone is refused rather than read in the machine's local time, and so is a
 * day the calendar does not have (`2030-02-30`); years 1970 to 9999.
 */
export function readInstant(text: unknown): InstantRead {
  const trimmed = typeof text === 'string' ? text.trim() : '';
  const match = FORM.exec(trimmed);
  const usage = 'use a date (2030-12-06) or a date-time with a zone (2030-12-06T09:30:00Z)';
  if (!match) return { ok: false, reason: `${quoted(text)} is not an instant: ${usage}` };
  const [, year, month, day, hour = '0', minute = '0', second = '0', fraction = '0', zone = 'Z'] = match;
  const fields = [year, month, day, hour, minute, second].map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const local = Date.UTC(
    fields[0],
    fields[1] - 1,
    fields[2],
    fields[3],
    fields[4],
    fields[5],
    Number(fraction.padEnd(3, '0')),
  );
  const check = new Date(local);
  const real =
    check.getUTCFullYear() === fields[0] &&
    check.getUTCMonth() === fields[1] - 1 &&
    check.getUTCDate() === fields[2] &&
    fields[3] < 24 &&
    fields[4] < 60 &&
    fields[5] < 60;
  const [zoneHours, zoneMinutes] = zone === 'Z' ? [0, 0] : [Number(zone.slice(1, 3)), Number(zone.slice(4))];
  const ms = local - (zone[0] === '-' ? -1 : 1) * (zoneHours * 60 + zoneMinutes) * 60_000;
  if (!real || zoneHours > 23 || zoneMinutes > 59 || ms < 0)
    return { ok: false, reason: `${quoted(text)} is not a real instant from 1970 on: ${usage}` };
  return { ok: true, ms };
}
