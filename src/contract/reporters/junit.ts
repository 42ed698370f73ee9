import { coverageLine } from '../coverage.js';
import type { CaseResult, RunSummary } from '../run-types.js';
import { failureDetails, printable } from './failure-text.js';

function escape(text: string): string {
  return (
    text
      .replaceAll('&', '&amp;')
      .replaceAll('<', '&lt;')
      .replaceAll('>', '&gt;')
      .replaceAll('"', '&quot;')
      // XML 1.0 forbids most control characters even when escaped, and lone surrogates.
      .replace(
        /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g,
        '\ufffd',
      )
  );
}

function seconds(ms: number | undefined): string {
  return ((ms ?? 0) / 1000).toFixed(3);
}

function testcase(result: CaseResult, strict: boolean, required: boolean, apiKey: string): string {
  const open = `    <testcase classname="${escape(`kennel.${result.operationId}`)}" name="${escape(result.check)}" time="${seconds(result.durationMs)}">`;
  if (result.status === 'skipped')
    return `${open}\n      <skipped message="${escape(result.skipReason ?? '')}"/>\n    </testcase>`;
  const parts = [open];
  // Skipped, saying why, unless --require-exercised makes it fail the run: then an error.
  if (result.status === 'unexercised' && !required)
    return `${open}\n      <skipped message="${escape(printable(`not exercised: ${result.unexercisedReason ?? ''}`))}"/>\n    </testcase>`;
  if (result.status === 'unexercised')
    parts.push(
      `      <error message="${escape(printable(`not exercised: ${result.unexercisedReason ?? ''}`))}" type="not-exercised">${escape(result.unexercisedReason ?? '')}</error>`,
    );
  if (result.status === 'errored')
    parts.push(
      `      <error message="${escape(`the check crashed: ${result.error ?? ''}`)}" type="crash">${escape(result.error ?? '')}</error>`,
    );
  const counted = result.failures.filter((item) => item.severity === 'error' || strict);
  const noted = result.failures.filter((item) => !counted.includes(item));
  for (const item of counted) {
    const body = [item.title, ...failureDetails(item, apiKey)].join('\n');
    const message = item.occurrences > 1 ? `${item.title} (seen ${item.occurrences} times)` : item.title;
    parts.push(
      `      <failure message="${escape(printable(message))}" type="${item.severity}">${escape(body)}</failure>`,
    );
  }
  if (noted.length > 0)
    parts.push(
      `      <system-out>${escape(noted.map((item) => `WARNING: ${item.title}\n${failureDetails(item, apiKey).join('\n')}`).join('\n\n'))}</system-out>`,
    );
  parts.push('    </testcase>');
  return parts.join('\n');
}

/** JUnit XML: one test suite per operation, one test case per check on it (with its time), one failure per unique finding. */
export function junitXml(summary: RunSummary, apiKey: string): string {
  const byOperation = new Map<string, CaseResult[]>();
  for (const result of summary.cases)
    byOperation.set(result.operationId, [...(byOperation.get(result.operationId) ?? []), result]);
  const required = summary.requireExercised ?? false;
  const isFailure = (result: CaseResult) =>
    result.status === 'failed' || (summary.strict && result.status === 'warned');
  // `extra` errored cases: the "nothing checked" case of a run that sent no request.
  const counts = (cases: readonly CaseResult[], extra = 0) =>
    `tests="${cases.length + extra}" failures="${cases.filter(isFailure).length}" errors="${cases.filter((item) => item.status === 'errored' || (required && item.status === 'unexercised')).length + extra}" skipped="${cases.filter((item) => item.status === 'skipped' || (!required && item.status === 'unexercised')).length}"`;
  const suites = [...byOperation.entries()].map(([operationId, cases]) => {
    const first = cases[0]!;
    const time = seconds(cases.reduce((sum, item) => sum + (item.durationMs ?? 0), 0));
    const attributes = `name="${escape(`${operationId} (${first.method} ${first.path})`)}" ${counts(cases)} time="${time}"`;
    return `  <testsuite ${attributes}>\n${cases.map((item) => testcase(item, summary.strict, summary.requireExercised ?? false, apiKey)).join('\n')}\n  </testsuite>`;
  });
  const notes = [
    `kennel check of ${summary.baseUrl}, seed ${summary.seed}, run ${summary.runId}`,
    ...(summary.stopped ? [`stopped: ${summary.stopped}`] : []),
    ...(summary.hints ?? []).map((hint) => `hint: ${hint}`),
    ...(summary.nothingSent ? [`not checked: ${summary.nothingSent}`] : []),
    ...(summary.coverage ? [coverageLine(summary.coverage)] : []),
  ];
  if (summary.nothingSent)
    suites.push(
      [
        '  <testsuite name="kennel check" tests="1" failures="0" errors="1" skipped="0" time="0.000">',
        '    <testcase classname="kennel" name="nothing checked" time="0.000">',
        `      <error message="${escape(printable(summary.nothingSent))}" type="nothing-checked">${escape(summary.nothingSent)}</error>`,
        '    </testcase>',
        '  </testsuite>',
      ].join('\n'),
    );
  // "--" may not appear inside an XML comment.
  const comment = `  <!-- ${escape(notes.join('; ')).replaceAll('--', '-\u2010')} -->`;
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="kennel check" ${counts(summary.cases, summary.nothingSent ? 1 : 0)} time="${seconds(summary.durationMs)}">\n${comment}\n${suites.join('\n')}\n</testsuites>\n`;
}

/** A JUnit report for a run that could not start (unreachable URL, broken spec): one errored test case. */
export function junitForToolError(message: string): string {
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<testsuites name="kennel check" tests="1" failures="0" errors="1" skipped="0" time="0.000">',
    '  <testsuite name="kennel check" tests="1" failures="0" errors="1" skipped="0" time="0.000">',
    `    <testcase classname="kennel" name="could not run" time="0.000">`,
    `      <error message="${escape(printable(message))}" type="could-not-run">${escape(message)}</error>`,
    '    </testcase>',
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
}
