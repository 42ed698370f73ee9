import { coverageLine } from '../checks/coverage.js';
import type { CaseResult, RunSummary } from '../run/run-types.js';
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

/** One `<testcase>` as written, and what it counts as. */
interface Rendered {
  xml: string;
  kind: 'passed' | 'failure' | 'error' | 'skipped';
}

/** A check's case that did not apply to the operation (not one an interrupt left unrun): left out. */
const notApplicable = (result: CaseResult): boolean =>
  result.status === 'skipped' && !result.skipReason?.startsWith('not run:');

/** Longest finding title a test case's name carries. */
const NAME_TITLE = 120;

/**
 * The test cases of one check on one operation: one per unique finding that fails the run (each
 * with exactly one `<failure>`, as CI tools show only the first), else one for the check itself.
 */
function testcases(result: CaseResult, strict: boolean, required: boolean, apiKey: string): Rendered[] {
  const open = (name: string, ms: number | undefined) =>
    `    <testcase classname="${escape(`kennel.${result.operationId}`)}" name="${escape(name)}" time="${seconds(ms)}">`;
  const single = (kind: Rendered['kind'], inner: string[]): Rendered[] => [
    { kind, xml: [open(result.check, result.durationMs), ...inner, '    </testcase>'].join('\n') },
  ];
  const counted = result.failures.filter((item) => item.severity === 'error' || strict);
  const noted = result.failures.filter((item) => !counted.includes(item));
  const warnings =
    noted.length > 0
      ? [
          `      <system-out>${escape(noted.map((item) => `WARNING: ${item.title}\n${failureDetails(item, apiKey).join('\n')}`).join('\n\n'))}</system-out>`,
        ]
      : [];
  if (result.status === 'skipped')
    return single('skipped', [`      <skipped message="${escape(result.skipReason ?? '')}"/>`]);
  const idle = printable(`not exercised: ${result.unexercisedReason ?? ''}`);
  // Skipped, saying why, unless --require-exercised makes it fail the run: then an error.
  if (result.status === 'unexercised')
    return required
      ? single('error', [
          `      <error message="${escape(idle)}" type="not-exercised">${escape(result.unexercisedReason ?? '')}</error>`,
        ])
      : single('skipped', [`      <skipped message="${escape(idle)}"/>`]);
  if (result.status === 'errored')
    return single('error', [
      `      <error message="${escape(`the check crashed: ${result.error ?? ''}`)}" type="crash">${escape(result.error ?? '')}</error>`,
      ...warnings,
    ]);
  if (counted.length === 0) return single('passed', warnings);
  return counted.map((item, index) => {
    const body = [item.title, ...failureDetails(item, apiKey)].join('\n');
    const message = item.occurrences > 1 ? `${item.title} (seen ${item.occurrences} times)` : item.title;
    const title = printable(item.title);
    const name = `${result.check}: ${title.length > NAME_TITLE ? `${title.slice(0, NAME_TITLE)}…` : title}`;
    const xml = [
      open(name, index === 0 ? result.durationMs : 0),
      `      <failure message="${escape(printable(message))}" type="${item.severity}">${escape(body)}</failure>`,
      ...(index === 0 ? warnings : []),
      '    </testcase>',
    ].join('\n');
    return { kind: 'failure' as const, xml };
  });
}

function counts(cases: readonly Rendered[]): string {
  const of = (kind: Rendered['kind']) => cases.filter((item) => item.kind === kind).length;
  return `tests="${cases.length}" failures="${of('failure')}" errors="${of('error')}" skipped="${of('skipped')}"`;
}

/** A suite of kennel's own: one errored case saying why the run is incomplete. */
function runError(name: string, type: string, message: string): { xml: string; cases: Rendered[] } {
  const cases: Rendered[] = [
    {
      kind: 'error',
      xml: [
        `    <testcase classname="kennel" name="${escape(name)}" time="0.000">`,
        `      <error message="${escape(printable(message))}" type="${type}">${escape(message)}</error>`,
        '    </testcase>',
      ].join('\n'),
    },
  ];
  return {
    cases,
    xml: `  <testsuite name="kennel check" ${counts(cases)} time="0.000">\n${cases[0]!.xml}\n  </testsuite>`,
  };
}

/**
 * JUnit XML: one test suite per operation, one test case per check on it, or one per unique
 * finding when it failed (at most one `<failure>` each). Checks that did not apply are left out
 * and counted in the suite's `kennel.not-applicable` property; an interrupted or unsound run gets
 * an errored case saying so, so CI never reads it as green.
 */
export function junitXml(summary: RunSummary, apiKey: string): string {
  const byOperation = new Map<string, CaseResult[]>();
  for (const result of summary.cases)
    byOperation.set(result.operationId, [...(byOperation.get(result.operationId) ?? []), result]);
  const required = summary.requireExercised ?? false;
  const all: Rendered[] = [];
  const suites = [...byOperation.entries()].map(([operationId, cases]) => {
    const first = cases[0]!;
    const time = seconds(cases.reduce((sum, item) => sum + (item.durationMs ?? 0), 0));
    const left = cases.filter(notApplicable).length;
    const rendered = cases
      .filter((item) => !notApplicable(item))
      .flatMap((item) => testcases(item, summary.strict, required, apiKey));
    all.push(...rendered);
    const attributes = `name="${escape(`${operationId} (${first.method} ${first.path})`)}" ${counts(rendered)} time="${time}"`;
    const properties = `    <properties>\n      <property name="kennel.not-applicable" value="${left}"/>\n    </properties>`;
    return `  <testsuite ${attributes}>\n${[properties, ...rendered.map((item) => item.xml)].join('\n')}\n  </testsuite>`;
  });
  const notes = [
    `kennel check of ${summary.baseUrl}, seed ${summary.seed}, run ${summary.runId}`,
    ...(summary.stopped ? [`stopped: ${summary.stopped}`] : []),
    ...(summary.hints ?? []).map((hint) => `hint: ${hint}`),
    ...(summary.nothingSent ? [`not checked: ${summary.nothingSent}`] : []),
    ...(summary.coverage ? [coverageLine(summary.coverage)] : []),
  ];
  const own = [
    ...(summary.nothingSent ? [runError('nothing checked', 'nothing-checked', summary.nothingSent)] : []),
    ...(summary.stopped && summary.exitCode === 2 ? [runError('run incomplete', 'interrupted', summary.stopped)] : []),
  ];
  for (const suite of own) {
    suites.push(suite.xml);
    all.push(...suite.cases);
  }
  // "--" may not appear inside an XML comment.
  const comment = `  <!-- ${escape(notes.join('; ')).replaceAll('--', '-\u2010')} -->`;
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="kennel check" ${counts(all)} time="${seconds(summary.durationMs)}">\n${comment}\n${suites.join('\n')}\n</testsuites>\n`;
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
