import type { CaseResult, RunSummary } from '../runner.js';
import { failureDetails } from './failure-text.js';

function escape(text: string): string {
  return (
    text
      .replaceAll('&', '&amp;')
      .replaceAll('<', '&lt;')
      .replaceAll('>', '&gt;')
      .replaceAll('"', '&quot;')
      // XML 1.0 forbids most control characters even when escaped.
      .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g, '\ufffd')
  );
}

function testcase(result: CaseResult, strict: boolean, apiKey: string): string {
  const open = `    <testcase classname="${escape(`kennel.${result.operationId}`)}" name="${escape(result.check)}" time="0">`;
  if (result.status === 'skipped')
    return `${open}\n      <skipped message="${escape(result.skipReason ?? '')}"/>\n    </testcase>`;
  const counted = result.failures.filter((item) => item.severity === 'error' || strict);
  const noted = result.failures.filter((item) => !counted.includes(item));
  const parts = [open];
  for (const item of counted) {
    const body = [item.title, ...failureDetails(item, apiKey)].join('\n');
    parts.push(`      <failure message="${escape(item.title)}" type="${item.severity}">${escape(body)}</failure>`);
  }
  if (noted.length > 0)
    parts.push(
      `      <system-out>${escape(noted.map((item) => `WARNING: ${item.title}\n${failureDetails(item, apiKey).join('\n')}`).join('\n\n'))}</system-out>`,
    );
  parts.push('    </testcase>');
  return parts.join('\n');
}

/** JUnit XML: one test suite per operation, one test case per check on it. */
export function junitXml(summary: RunSummary, apiKey: string): string {
  const byOperation = new Map<string, CaseResult[]>();
  for (const result of summary.cases)
    byOperation.set(result.operationId, [...(byOperation.get(result.operationId) ?? []), result]);
  const isFailure = (result: CaseResult) =>
    result.status === 'failed' || (summary.strict && result.status === 'warned');
  const suites = [...byOperation.entries()].map(([operationId, cases]) => {
    const first = cases[0]!;
    const attributes = `name="${escape(`${operationId} (${first.method} ${first.path})`)}" tests="${cases.length}" failures="${cases.filter(isFailure).length}" errors="0" skipped="${cases.filter((item) => item.status === 'skipped').length}" time="0"`;
    return `  <testsuite ${attributes}>\n${cases.map((item) => testcase(item, summary.strict, apiKey)).join('\n')}\n  </testsuite>`;
  });
  const totals = `tests="${summary.cases.length}" failures="${summary.cases.filter(isFailure).length}" errors="0" skipped="${summary.cases.filter((item) => item.status === 'skipped').length}" time="${(summary.durationMs / 1000).toFixed(3)}"`;
  const properties = `  <!-- kennel check of ${escape(summary.baseUrl)}, seed ${summary.seed}, run ${escape(summary.runId)} -->`;
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="kennel check" ${totals}>\n${properties}\n${suites.join('\n')}\n</testsuites>\n`;
}
