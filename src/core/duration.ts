const UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/**
 * The longest duration kennel accepts (10 years, as `3650d`): one clock advance, the virtual span
 * of a scenario, a platform delay of the world file. Far beyond any custom-domain story, and small
 * enough that every instant the simulator computes stays a valid four-digit-year date.
 */
export const MAX_DURATION_MS = 3650 * UNITS.d!;

/** A value as messages quote it: JSON, cut short when long. */
function quoted(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 40 ? `${text.slice(0, 37)}...` : text;
}

export type DurationRead = { ok: true; ms: number } | { ok: false; reason: string };

/** `48h`, `30m`, `1h30m`, `90s`, `500ms`, `2d` → milliseconds, refusing what is not one or exceeds MAX_DURATION_MS. */
export function readDuration(text: unknown): DurationRead {
  const trimmed = typeof text === 'string' ? text.trim() : '';
  if (!/^(\d+(\.\d+)?(ms|s|m|h|d))+$/.test(trimmed))
    return { ok: false, reason: `${quoted(text)} is not a duration such as 30s, 10m or 48h` };
  let total = 0;
  for (const [, amount, , unit] of trimmed.matchAll(/(\d+(\.\d+)?)(ms|s|m|h|d)/g))
    total += Number(amount) * UNITS[unit!]!;
  // Compared before rounding: huge amounts are Infinity, and NaN never passes.
  if (!(total <= MAX_DURATION_MS))
    return {
      ok: false,
      reason: `${quoted(text)} is longer than the ${MAX_DURATION_MS / UNITS.d!}d (10 years) kennel accepts`,
    };
  return { ok: true, ms: Math.round(total) };
}

/** Milliseconds of a duration such as `48h`; undefined when not a duration or longer than MAX_DURATION_MS. */
export function parseDuration(text: string): number | undefined {
  const read = readDuration(text);
  return read.ok ? read.ms : undefined;
}

/** `T+01:30:00` style offset from a start, for timelines (days shown when over 24 h). */
export function formatOffset(ms: number): string {
  const seconds = Math.floor(ms / 1000);
  const days = Math.floor(seconds / 86_400);
  const hh = String(Math.floor((seconds % 86_400) / 3600)).padStart(2, '0');
  const mm = String(Math.floor((seconds % 3600) / 60)).padStart(2, '0');
  const ss = String(seconds % 60).padStart(2, '0');
  return `T+${days > 0 ? `${days}d ` : ''}${hh}:${mm}:${ss}`;
}

/** `3m31s`, `1d2h`, `0s`: milliseconds as a duration readDuration accepts. */
export function formatDuration(ms: number): string {
  const parts: string[] = [];
  let rest = Math.round(ms);
  for (const unit of ['d', 'h', 'm', 's', 'ms']) {
    const size = UNITS[unit]!;
    if (rest >= size) parts.push(`${Math.floor(rest / size)}${unit}`);
    rest %= size;
  }
  return parts.join('') || '0s';
}

/** `3600` seconds → `1h`, `85800` → `23h50m` (never `1430m`), `90` → `1m30s`, for messages. */
export function describeSeconds(seconds: number): string {
  return formatDuration(seconds * 1000);
}

/** `158d 14h 35m`: a long span in words, for summaries. */
export function describeSpan(ms: number): string {
  const minutes = Math.round(ms / 60_000);
  const parts = [
    [Math.floor(minutes / 1440), 'd'],
    [Math.floor((minutes % 1440) / 60), 'h'],
    [minutes % 60, 'm'],
  ].filter(([amount]) => (amount as number) > 0);
  return parts.length > 0 ? parts.map(([amount, unit]) => `${amount}${unit}`).join(' ') : `${Math.round(ms / 1000)}s`;
}
