// Text rendering of the results: the load table, cold starts, memory and the PASS/FAIL targets.

const int = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });

export function formatInt(value) {
  return value === undefined || value === null || Number.isNaN(value) ? '-' : int.format(value);
}

export function formatFixed(value, digits = 2) {
  return value === undefined || value === null || Number.isNaN(value) ? '-' : value.toFixed(digits);
}

function pad(text, width, alignRight) {
  const value = String(text);
  return alignRight ? value.padStart(width) : value.padEnd(width);
}

/** Renders rows (arrays of cells) under `columns` ({title, right}) as an aligned plain-text table. */
export function table(columns, rows) {
  const widths = columns.map((column, index) =>
    Math.max(column.title.length, ...rows.map((row) => String(row[index] ?? '').length)),
  );
  const line = (cells) =>
    cells
      .map((cell, index) => pad(cell ?? '', widths[index], columns[index].right))
      .join('  ')
      .trimEnd();
  const rule = widths
    .map((width) => '-'.repeat(width))
    .join('  ')
    .trimEnd();
  return [line(columns.map((column) => column.title)), rule, ...rows.map(line)].join('\n');
}

/** The round with the median req/s (the lower middle one for an even count), so its p99 is real. */
export function medianRound(rounds) {
  const sorted = [...rounds].sort((a, b) => a.reqPerSec - b.reqPerSec);
  return sorted[Math.floor((sorted.length - 1) / 2)];
}

export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 0) return undefined;
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

export function ratio(numerator, denominator) {
  return numerator !== undefined && denominator ? numerator / denominator : undefined;
}
