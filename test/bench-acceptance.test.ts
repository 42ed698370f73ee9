// The bench's acceptance rows for issue 20 (bench/lib/acceptance.js): each passes only on figures
// that were measured and clean, and says SKIP, never PASS, about what the run did not measure.
import { describe, expect, it } from 'vitest';
// @ts-expect-error: the bench is plain JavaScript without declarations
import { acceptanceChecks } from '../bench/lib/acceptance.js';
// @ts-expect-error: the bench is plain JavaScript without declarations
import { findingsOf } from '../bench/lib/check-scale.js';

interface Row {
  name: string;
  status: 'PASS' | 'FAIL' | 'SKIP';
  detail: string;
}

const routeRow = (reqPerSec: number, extra: Record<string, unknown> = {}) => ({ reqPerSec, flagged: false, ...extra });

function routes(kennel: Record<string, unknown>, koa = routeRow(10_000), prism = routeRow(1_500)) {
  const byTarget = { kennel: { ...routeRow(9_500), vsBaseline: 0.95, vsPrism: 6.3, ...kennel }, baseline: koa, prism };
  return { list: byTarget, get: byTarget, create: byTarget };
}

const measured = {
  cold: { kennel: { medianMs: 250, samplesMs: [240, 250, 260] } },
  memory: { kennel: { rssMb: 110 }, baseline: { rssMb: 100 } },
  checkScale: {
    seconds: 20,
    operations: 600,
    findings: { requests: 14_700, errors: 0, warnings: 300, failures: 1200, digest: 'abc' },
    sameAsLast: true,
  },
};

const statuses = (rows: Row[]) => Object.fromEntries(rows.map((row) => [row.name, row.status]));

describe('issue 20 acceptance rows', () => {
  it('pass on measured figures within every bound', () => {
    const rows = acceptanceChecks({ summary: routes({}), ...measured }) as Row[];
    expect(rows).toHaveLength(9);
    expect(rows.every((row) => row.status === 'PASS')).toBe(true);
  });

  it('fail on each bound missed, and on a route whose rows had errors', () => {
    const rows = acceptanceChecks({
      summary: routes({ vsBaseline: 0.89, vsPrism: 4.9 }),
      cold: { kennel: { medianMs: 301, samplesMs: [301] } },
      memory: { kennel: { rssMb: 121 }, baseline: { rssMb: 100 } },
      checkScale: { ...measured.checkScale, seconds: 31, sameAsLast: false },
    }) as Row[];
    expect(rows.every((row) => row.status === 'FAIL')).toBe(true);
    expect(rows.at(-1)!.detail).toContain('FINDINGS DIFFER');
    const flagged = acceptanceChecks({ summary: routes({ flagged: true }), ...measured }) as Row[];
    expect(flagged.filter((row) => row.status === 'FAIL')).toHaveLength(6);
  });

  it('skip what was not measured: no Prism, no memory, no cold start, the check left out', () => {
    const summary = routes({ vsPrism: undefined });
    const rows = acceptanceChecks({
      summary,
      prismSkipped: 'left out with --no-prism',
      cold: {},
      memory: {},
      checkScale: { skip: 'left out by --quick' },
    }) as Row[];
    const byName = statuses(rows);
    expect(Object.entries(byName).filter(([name]) => name.includes('Koa >= 0.9'))).toEqual([
      ['GET /v1/pets kennel/Koa >= 0.9', 'PASS'],
      ['GET /v1/pets/1 kennel/Koa >= 0.9', 'PASS'],
      ['POST /v1/pets kennel/Koa >= 0.9', 'PASS'],
    ]);
    expect(rows.filter((row) => row.status === 'SKIP')).toHaveLength(6);
    expect(rows.find((row) => row.name.includes('Prism'))!.detail).toContain('--no-prism');
  });
});

describe('findings of a kennel check report', () => {
  const report = (cases: { status: string; check: string }[]) => ({
    errors: 0,
    warnings: 1,
    failureCount: 2,
    requests: 10,
    exitCode: 0,
    cases: cases.map((entry) => ({ method: 'GET', path: '/a', failureCount: 1, ...entry })),
  });

  it('counts the cases by status and digests those that did not pass, in any order', () => {
    const cases = [
      { status: 'passed', check: 'a' },
      { status: 'warned', check: 'b' },
      { status: 'failed', check: 'c' },
      { status: 'skipped', check: 'd' },
    ];
    const found = findingsOf(report(cases));
    expect(found.cases).toEqual({ passed: 1, warned: 1, failed: 1, skipped: 1 });
    expect(findingsOf(report([...cases].reverse())).digest).toBe(found.digest);
    expect(findingsOf(report([...cases, { status: 'passed', check: 'e' }])).digest).toBe(found.digest);
    expect(findingsOf(report([...cases, { status: 'warned', check: 'e' }])).digest).not.toBe(found.digest);
  });
});
