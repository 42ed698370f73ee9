const UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** `48h`, `30m`, `1h30m`, `90s`, `500ms`, `2d` → milliseconds; undefined when not a duration. */
export function parseDuration(text: string): number | undefined {
  const trimmed = text.trim();
  if (!/^(\d+(\.\d+)?(ms|s|m|h|d))+$/.test(trimmed)) return undefined;
  let total = 0;
  for (const [, amount, , unit] of trimmed.matchAll(/(\d+(\.\d+)?)(ms|s|m|h|d)/g))
    total += Number(amount) * UNITS[unit!]!;
  return Math.round(total);
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

/** `3600` seconds → `1h`, for messages. */
export function describeSeconds(seconds: number): string {
  if (seconds % 86_400 === 0 && seconds > 0) return `${seconds / 86_400}d`;
  if (seconds % 3600 === 0 && seconds > 0) return `${seconds / 3600}h`;
  if (seconds % 60 === 0 && seconds > 0) return `${seconds / 60}m`;
  return `${seconds}s`;
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
