// Text rendering of the reliability figures: the bounds table and the findings grouped by family.
import { formatFixed, formatInt, table } from './report.js';

/** One row per figure: [label, value, bound, verdict]; verdict PASS/FAIL for hard bounds, '' when reported only. */
export function boundsTable(rows) {
  const columns = [{ title: 'figure' }, { title: 'value', right: true }, { title: 'bound' }, { title: '' }];
  return table(
    columns,
    rows.map((row) => [row.label, row.value, row.bound ?? '', row.verdict ?? '']),
  );
}

/** A row of a hard bound. */
export function hard(label, value, pass, bound) {
  return { label, value, bound, verdict: pass ? 'PASS' : 'FAIL', hard: true, pass };
}

/** A row that is reported, never gated. */
export function reported(label, value, bound = '') {
  return { label, value, bound, verdict: '' };
}

export const mb = (value) => (value === undefined ? '-' : `${formatFixed(value, 0)} MB`);
export const ms = (value) => (value === undefined ? '-' : `${formatInt(value)} ms`);

/** Findings grouped family -> kind -> variant, each group with its count and first example. */
export function groupFindings(findings) {
  const groups = new Map();
  for (const finding of findings) {
    const key = `${finding.family}\u0000${finding.kind}\u0000${finding.variant}`;
    const group = groups.get(key) ?? {
      family: finding.family,
      kind: finding.kind,
      variant: finding.variant,
      count: 0,
      statuses: {},
      example: finding,
    };
    group.count += 1;
    const status = finding.status ?? finding.outcome;
    group.statuses[status] = (group.statuses[status] ?? 0) + 1;
    groups.set(key, group);
  }
  return [...groups.values()].sort(
    (a, b) => a.family.localeCompare(b.family) || a.kind.localeCompare(b.kind) || b.count - a.count,
  );
}

/** The findings as text, at most `perFamily` groups shown per family. */
export function findingsText(groups, { perFamily = 12 } = {}) {
  const lines = [];
  let family;
  let shown = 0;
  for (const group of groups) {
    if (group.family !== family) {
      family = group.family;
      shown = 0;
      const all = groups.filter((candidate) => candidate.family === family);
      lines.push(`  ${family} (${all.reduce((sum, candidate) => sum + candidate.count, 0)} findings)`);
    }
    shown += 1;
    if (shown > perFamily) {
      if (shown === perFamily + 1) lines.push('    … more in the JSON report');
      continue;
    }
    const statuses = Object.entries(group.statuses)
      .map(([status, count]) => `${status}×${count}`)
      .join(' ');
    lines.push(`    ${group.kind.padEnd(14)} ${group.variant} (${group.count}: ${statuses}): ${group.example.detail}`);
    lines.push(`      request: ${group.example.summary}`);
    if (group.example.body) lines.push(`      body:    ${group.example.body.replace(/\s+/g, ' ').slice(0, 160)}`);
    if (group.example.repro)
      lines.push(
        `      replay:  ${group.example.repro.length > 300 ? `${group.example.repro.slice(0, 300)}…` : group.example.repro}`,
      );
  }
  return lines.join('\n');
}
