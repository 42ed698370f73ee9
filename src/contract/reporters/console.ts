import type { CaseResult, RunInfo, RunListener, RunSummary } from '../runner.js';
import { failureDetails } from './failure-text.js';

const MARK: Record<CaseResult['status'], string> = { passed: 'ok  ', warned: 'warn', failed: 'FAIL', skipped: 'skip' };

/** Human-readable progress and summary for a terminal or a CI log (plain text, no colours). */
export function consoleReporter(write: (text: string) => void, apiKey: string): RunListener {
  let lastCheck = '';
  return {
    runStart(info: RunInfo) {
      write(`kennel check: ${info.baseUrl} against ${info.specFile}\n`);
      write(
        `  seed ${info.seed} · run ${info.runId}${info.readOnly ? ' · read-only' : ''} · ${info.checks.length} checks × ${info.operations.length} operations\n\n`,
      );
    },
    caseResult(result) {
      if (result.status === 'skipped' || result.check === lastCheck) return;
      lastCheck = result.check;
      write(`  running ${result.check}\n`);
    },
    runEnd(summary: RunSummary) {
      write(`\n${summaryTable(summary)}\n`);
      const findings = summary.cases.filter((result) => result.status === 'failed' || result.status === 'warned');
      if (findings.length > 0) write(`${details(findings, apiKey)}\n`);
      write(`${verdict(summary)}\n`);
    },
  };
}

/** Per operation: a line per check that ran, then the ones that did not apply on one line. */
function summaryTable(summary: RunSummary): string {
  const lines: string[] = [];
  const operations = [...new Set(summary.cases.map((result) => result.operationId))];
  for (const operationId of operations) {
    const cases = summary.cases.filter((result) => result.operationId === operationId);
    lines.push(`${operationId} (${cases[0]!.method} ${cases[0]!.path})`);
    for (const result of cases.filter((item) => item.status !== 'skipped')) {
      lines.push(
        `  ${MARK[result.status]}  ${result.check}${result.failures.length > 0 ? `  ${countText(result)}` : ''}`,
      );
    }
    const skipped = cases.filter((item) => item.status === 'skipped').map((item) => item.check);
    if (skipped.length > 0) lines.push(`  ${MARK.skipped}  ${skipped.join(', ')} (not applicable: see --json for why)`);
  }
  return lines.join('\n');
}

function countText(result: CaseResult): string {
  const errors = result.failures.filter((item) => item.severity === 'error').length;
  const warnings = result.failures.length - errors;
  return [
    errors > 0 ? `${errors} error${errors > 1 ? 's' : ''}` : '',
    warnings > 0 ? `${warnings} warning${warnings > 1 ? 's' : ''}` : '',
  ]
    .filter(Boolean)
    .join(', ');
}

function details(findings: readonly CaseResult[], apiKey: string): string {
  const blocks = findings.flatMap((result) =>
    result.failures.map((item) => {
      const head = `${item.severity === 'error' ? 'ERROR' : 'WARNING'} ${result.operationId} · ${result.check}: ${item.title}`;
      return [head, ...failureDetails(item, apiKey).map((line) => `    ${line}`)].join('\n');
    }),
  );
  return `Findings\n\n${blocks.join('\n\n')}\n`;
}

function verdict(summary: RunSummary): string {
  const counted = (status: CaseResult['status']) => summary.cases.filter((result) => result.status === status).length;
  const outcome = summary.exitCode === 0 ? 'conforms' : 'does not conform';
  return [
    `${summary.baseUrl} ${outcome}: ${summary.errors} error(s), ${summary.warnings} warning(s)${summary.strict ? ' (--strict: warnings count)' : ''}`,
    `  ${counted('passed')} passed, ${counted('warned')} with warnings, ${counted('failed')} failed, ${counted('skipped')} skipped · ${summary.requests} requests in ${(summary.durationMs / 1000).toFixed(2)} s`,
    `  replay with --seed ${summary.seed}`,
  ].join('\n');
}
