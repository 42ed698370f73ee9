import { formatOffset } from '../../core/duration.js';
import type { ScenarioResult } from './scenario.js';

/** A scenario as a readable timeline: virtual time, action, what was observed, PASS/FAIL. */
export function timeline(result: ScenarioResult): string {
  const lines = [`${result.passed ? 'PASS' : 'FAIL'}  ${result.name}: ${result.description.trim().split('\n')[0]}`];
  for (const problem of result.setupProblems) lines.push(`        given: ${problem}`);
  for (const step of result.steps) {
    lines.push(
      `  ${formatOffset(step.offsetMs).padEnd(16)} ${step.passed ? '  ' : '✗ '}${step.action}  →  ${step.observed}`,
    );
    for (const failure of step.failures)
      lines.push(`${' '.repeat(22)}${result.file && step.line ? `${result.file}:${step.line}: ` : ''}${failure}`);
  }
  return lines.join('\n');
}

function escape(text: string): string {
  return text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;');
}

/** JUnit XML: one test case per scenario, the timeline as its output. */
export function scenarioJunit(results: readonly ScenarioResult[], durationMs: number): string {
  const failures = results.filter((result) => !result.passed).length;
  const cases = results.map((result) => {
    const open = `    <testcase classname="kennel.scenarios" name="${escape(result.name)}" time="0">`;
    const failure = result.passed
      ? ''
      : `\n      <failure message="${escape(`${result.steps.filter((step) => !step.passed).length + result.setupProblems.length} expectation(s) failed`)}">${escape(timeline(result))}</failure>`;
    return `${open}${failure}\n      <system-out>${escape(timeline(result))}</system-out>\n    </testcase>`;
  });
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="kennel scenario" tests="${results.length}" failures="${failures}" time="${(durationMs / 1000).toFixed(3)}">\n  <testsuite name="scenarios" tests="${results.length}" failures="${failures}" errors="0" skipped="0" time="${(durationMs / 1000).toFixed(3)}">\n${cases.join('\n')}\n  </testsuite>\n</testsuites>\n`;
}
