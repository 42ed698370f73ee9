import path from 'node:path';
import { PETSTORE_SPEC } from '../../assets.js';
import type { CaseResult, RunInfo, RunListener, RunSummary } from '../run/run-types.js';
import { coverageLine } from '../checks/coverage.js';
import { FINDING_BOUNDS } from '../run/findings.js';
import type { Finding } from '../types.js';
import { failureDetails, printable } from './failure-text.js';
import { progressLine } from './progress.js';

const MARK: Record<CaseResult['status'], string> = {
  passed: 'ok  ',
  warned: 'warn',
  failed: 'FAIL',
  errored: 'ERR ',
  skipped: 'skip',
  unexercised: 'NONE',
};

/**
 * How much the console says while a run goes: `quiet` only findings and the verdict; `normal` a
 * line per check with the counts so far (unless `live`: a terminal's progress line shows them);
 * `verbose` also each case as it finishes.
 */
export interface ConsoleOptions {
  detail?: 'quiet' | 'normal' | 'verbose';
  live?: boolean;
}

/** Human-readable progress and summary for a terminal or a CI log (plain text, no colours). */
export function consoleReporter(
  write: (text: string) => void,
  apiKey: string,
  { detail = 'normal', live = false }: ConsoleOptions = {},
): RunListener {
  let lastPhase = '';
  let started = Date.now();
  return {
    runStart(info: RunInfo) {
      started = Date.now();
      if (detail === 'quiet') return;
      write(`kennel check: ${info.baseUrl} against ${specLabel(info.specFile)}\n`);
      write(
        `  seed ${info.seed} · run ${info.runId}${info.readOnly ? ' · read-only' : ''} · ${info.checks.length} checks × ${info.operations.length} operations\n\n`,
      );
    },
    progress(progress) {
      if (detail === 'quiet' || live || progress.phase === lastPhase) return;
      lastPhase = progress.phase;
      write(`  ${progressLine(progress, Date.now() - started)}\n`);
    },
    caseResult(result) {
      if (detail !== 'verbose') return;
      const why = result.status === 'skipped' ? `  (${printable(result.skipReason ?? '')})` : '';
      write(`    ${MARK[result.status]}  ${result.check}  ${result.operationId}${why}\n`);
    },
    runEnd(summary: RunSummary) {
      if (detail !== 'quiet') write(`\n${summaryTable(summary)}\n`);
      const findings = summary.cases.filter((result) => result.failures.length > 0 || result.status === 'errored');
      if (findings.length > 0) write(`\n${details(summary, findings, apiKey)}\n`);
      const idle = summary.cases.filter((result) => result.status === 'unexercised');
      if (idle.length > 0 && detail !== 'quiet') write(`\n${unexercisedBlock(idle)}\n`);
      write(`${verdict(summary)}\n`);
    },
  };
}

/** `bundled spec/petstore.yaml`, a path relative to the working directory when inside it, else as given. */
function specLabel(file: string): string {
  if (file === PETSTORE_SPEC) return 'bundled spec/petstore.yaml';
  const relative = path.relative(process.cwd(), file);
  return relative && !relative.startsWith('..') && !path.isAbsolute(relative) ? relative : file;
}

/** Per operation: a line per check that ran, then the ones that did not apply on one line. */
function summaryTable(summary: RunSummary): string {
  const lines: string[] = [];
  const operations = [...new Set(summary.cases.map((result) => result.operationId))];
  for (const operationId of operations) {
    const cases = summary.cases.filter((result) => result.operationId === operationId);
    lines.push(`${operationId} (${cases[0]!.method} ${cases[0]!.path})`);
    for (const result of cases.filter((item) => item.status !== 'skipped')) {
      const note =
        result.status === 'errored'
          ? 'the check crashed (see below)'
          : result.status === 'unexercised'
            ? [`not exercised: ${printable(result.unexercisedReason ?? '')}`, countText(result)]
                .filter(Boolean)
                .join('; ')
            : countText(result);
      lines.push(`  ${MARK[result.status]}  ${result.check}${note ? `  ${note}` : ''}`);
    }
    const skipped = cases.filter((item) => item.status === 'skipped');
    const notRun = skipped.filter((item) => item.skipReason?.startsWith('not run:'));
    const notApplicable = skipped.filter((item) => !notRun.includes(item)).map((item) => item.check);
    if (notApplicable.length > 0)
      lines.push(`  ${MARK.skipped}  ${notApplicable.join(', ')} (not applicable: see --json for why)`);
    if (notRun.length > 0) lines.push(`  ${MARK.skipped}  ${notRun.map((item) => item.check).join(', ')} (not run)`);
  }
  return lines.join('\n');
}

function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? '' : 's'}`;
}

/** `1 error (100 failures), 2 warnings`. */
function countText(result: CaseResult): string {
  const count = (severity: 'error' | 'warning') =>
    result.failures.filter((item) => item.severity === severity).length + (result.omitted?.[severity] ?? 0);
  const errors = count('error');
  const warnings = count('warning');
  const parts = [errors > 0 ? plural(errors, 'error') : '', warnings > 0 ? plural(warnings, 'warning') : ''];
  const text = parts.filter(Boolean).join(', ');
  const raw = result.failureCount ?? 0;
  return text && raw > errors + warnings ? `${text} (${plural(raw, 'failure')})` : text;
}

function findingBlock(result: CaseResult, item: Finding, apiKey: string): string {
  const head = `${item.severity === 'error' ? 'ERROR' : 'WARNING'} ${result.operationId} · ${result.check}: ${printable(item.title)}`;
  return [head, ...failureDetails(item, apiKey).map((line) => `    ${line}`)].join('\n');
}

/** Errors first (in report order), then warnings, then checks that crashed. */
function details(summary: RunSummary, cases: readonly CaseResult[], apiKey: string): string {
  const blocks = [
    ...cases.flatMap((result) =>
      result.failures.filter((item) => item.severity === 'error').map((item) => findingBlock(result, item, apiKey)),
    ),
    ...cases.flatMap((result) =>
      result.failures.filter((item) => item.severity === 'warning').map((item) => findingBlock(result, item, apiKey)),
    ),
    ...cases
      .filter((result) => result.status === 'errored')
      .map(
        (result) =>
          `ERRORED ${result.operationId} · ${result.check}: the check crashed (a bug in the check, not a finding)\n    error:    ${printable(result.error ?? '')}`,
      ),
  ];
  const omitted = cases.reduce((sum, result) => sum + (result.omitted?.error ?? 0) + (result.omitted?.warning ?? 0), 0);
  const title = `Findings: ${plural(summary.errors + summary.warnings, 'unique finding')} from ${plural(summary.failureCount ?? 0, 'failure')}${omitted > 0 ? ` (${omitted} beyond ${FINDING_BOUNDS.perCase} per check and operation not shown)` : ''}`;
  return `${title}\n\n${blocks.join('\n\n')}\n`;
}

/** Every check that applied but judged nothing, with why: what the verdict does not cover. */
function unexercisedBlock(cases: readonly CaseResult[]): string {
  const lines = cases.map(
    (result) => `NOT EXERCISED ${result.operationId} · ${result.check}: ${printable(result.unexercisedReason ?? '')}`,
  );
  return `Not exercised: ${plural(cases.length, 'check')} applied but judged nothing; the verdict does not cover them\n\n${lines.join('\n')}\n`;
}

/** What the run did with what it created: deleted, or left (each with why, the first few). */
function cleanupLines(summary: RunSummary): string[] {
  const cleanup = summary.cleanup;
  if (!cleanup || (cleanup.deleted === 0 && cleanup.left.length === 0)) return [];
  const left = cleanup.left;
  const shown = left
    .slice(0, 3)
    .map((item) => `${item.url}: ${item.reason}`)
    .join('; ');
  return [
    `  cleanup: deleted ${plural(cleanup.deleted, 'item')} the run created${left.length > 0 ? `; left ${left.length} (${shown}${left.length > 3 ? '; …' : ''})` : ''}`,
  ];
}

function verdict(summary: RunSummary): string {
  const counted = (status: CaseResult['status']) => summary.cases.filter((result) => result.status === status).length;
  const outcome =
    summary.exitCode === 0
      ? (summary.unexercised ?? 0) > 0
        ? 'conforms where exercised'
        : 'conforms'
      : summary.exitCode === 1
        ? 'does not conform'
        : 'could not be fully checked';
  const errored = counted('errored');
  const idle = counted('unexercised');
  return [
    ...(summary.hints ?? []).map((hint) => `hint: ${hint}`),
    ...(summary.stopped ? [`stopped: ${summary.stopped}`] : []),
    ...(summary.nothingSent ? [`not checked: ${summary.nothingSent}`] : []),
    ...(idle > 0
      ? [
          `not exercised: ${plural(idle, 'check')} judged nothing (listed above)${summary.requireExercised ? '; they fail the run (--require-exercised)' : ''}`,
        ]
      : []),
    `${summary.baseUrl} ${outcome}: ${summary.errors} error(s), ${summary.warnings} warning(s)${summary.strict ? ' (--strict: warnings count)' : ''}`,
    `  ${counted('passed')} passed, ${counted('warned')} with warnings, ${counted('failed')} failed, ${errored > 0 ? `${errored} crashed, ` : ''}${idle > 0 ? `${idle} not exercised, ` : ''}${counted('skipped')} skipped · ${summary.requests} requests in ${(summary.durationMs / 1000).toFixed(2)} s`,
    ...(summary.coverage ? [`  ${coverageLine(summary.coverage)}`] : []),
    ...cleanupLines(summary),
    `  replay with --seed ${summary.seed}`,
  ].join('\n');
}
