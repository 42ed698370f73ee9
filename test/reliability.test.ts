// The reliability suite's quick form (bench/reliability.js --quick) against a real `kennel serve`:
// its hard bounds hold, the second round's (issue 18: proxy, --data, Redis, --watch, chaos, admin) too. Timing figures (stalls, speed, slow clients) are reported by the suite,
// never asserted here: they depend on the machine.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '..');
const RUN_TIMEOUT_MS = 150_000;

interface Finding {
  family: string;
  kind: string;
  variant: string;
  count: number;
  example: { summary: string; detail: string; body: string; repro?: string };
}

interface Report {
  summary: {
    tried: number;
    fiveXx: number;
    nonConforming: number;
    storeChanges: number;
    crashes: number;
    dnsPackets: number;
    dnsAlive: boolean;
    qrAnswers: number;
    roundTwo?: { families: string[]; findings: number; byFamily: Record<string, number> };
  };
  groups: Finding[];
  hardFailures: string[];
  hostile: { storeChangedBy: { family: string; tenants: string[]; after: string }[] };
  roundTwo?: { findings: { family: string; kind: string; variant: string; detail: string }[] };
  writers?: { findings: { detail: string }[] };
}

interface Run {
  code: number | null;
  output: string;
  report?: Report;
}

function runQuickSuite(out: string): Promise<Run> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['bench/reliability.js', '--quick', '--out', out], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: RUN_TIMEOUT_MS,
      killSignal: 'SIGTERM',
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.on('close', (code) => {
      let report: Report | undefined;
      try {
        report = JSON.parse(readFileSync(out, 'utf8')) as Report;
      } catch {
        report = undefined;
      }
      resolve({ code, output, report });
    });
  });
}

/** The findings of some kinds, one line each, for an assertion message. */
function findings(report: Report | undefined, ...kinds: string[]): string {
  const lines = (report?.groups ?? [])
    .filter((group) => kinds.includes(group.kind))
    .map(
      (group) =>
        `${group.family} ${group.kind} ${group.variant} ×${group.count}: ${group.example.detail}; ${group.example.summary}; ${group.example.body.slice(0, 120)}`,
    );
  return lines.length > 0 ? `\n${lines.join('\n')}` : '';
}

describe('reliability suite, quick form (npm run reliability -- --quick)', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'kennel-reliability-'));
  let run: Run;

  beforeAll(async () => {
    run = await runQuickSuite(path.join(dir, 'reliability.json'));
  }, RUN_TIMEOUT_MS + 10_000);

  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('runs to the end (exit 0 or 1, a JSON report)', () => {
    expect(run.code, `exit code ${run.code}; output:\n${run.output.slice(-3000)}`).not.toBe(2);
    expect(run.report, `no JSON report; output:\n${run.output.slice(-3000)}`).toBeDefined();
  });

  it('sends at least 1,000 hostile HTTP requests and 5,000 fuzzed DNS packets', () => {
    expect(run.report?.summary.tried).toBeGreaterThanOrEqual(1000);
    expect(run.report?.summary.dnsPackets).toBeGreaterThanOrEqual(5000);
  });

  it('gets no 5xx', () => {
    expect(run.report?.summary.fiveXx, findings(run.report, '5xx')).toBe(0);
  });

  it('gets a conforming Error body for every error, and an answer whenever one is due', () => {
    expect(run.report?.summary.nonConforming, findings(run.report, 'non-conforming', 'no-answer')).toBe(0);
  });

  it('leaves the store byte-identical (and writers read back what they wrote, each in its own tenant)', () => {
    const changedBy = (run.report?.hostile.storeChangedBy ?? []).map(
      (entry) =>
        `\nstore changed while sending ${entry.family} (${entry.tenants.join(', ')}): ${entry.after.slice(0, 120)}`,
    );
    const writers = (run.report?.writers?.findings ?? []).map((finding) => `\nwriters: ${finding.detail}`);
    expect(
      run.report?.summary.storeChanges,
      [...changedBy, ...writers].join('') + findings(run.report, 'accepted'),
    ).toBe(0);
  });

  it('never crashes; DNS still answers over UDP and TCP after the fuzz', () => {
    expect(run.report?.summary.crashes).toBe(0);
    expect(run.report?.summary.dnsAlive).toBe(true);
  });

  it('never answers a DNS response packet (QR=1)', () => {
    expect(run.report?.summary.qrAnswers).toBe(0);
  });

  it('runs every second-round family (proxy, --data, Redis, --watch, chaos, admin)', () => {
    expect(run.report?.summary.roundTwo?.families.sort()).toEqual(
      ['admin', 'chaos', 'data', 'proxy', 'redis', 'reload'].sort(),
    );
  });

  it('second round: nothing smuggled, escaped, lost, handed out twice, hoarded, printed or accepted cross-site', () => {
    const lines = (run.report?.roundTwo?.findings ?? []).map(
      (item) => `\n${item.family} ${item.kind} ${item.variant}: ${item.detail}`,
    );
    expect(run.report?.summary.roundTwo?.findings, lines.join('')).toBe(0);
  });
});
