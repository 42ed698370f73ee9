import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import { consoleReporter } from '../../src/contract/reporters/console.js';
import { junitForToolError, junitXml } from '../../src/contract/reporters/junit.js';
import { jsonReport } from '../../src/contract/reporters/json.js';
import type { CaseResult, RunSummary } from '../../src/contract/run/runner.js';
import type { Exchange } from '../../src/contract/types.js';

const exchange = {
  purpose: 'a body where <weird> & "quoted"',
  request: {
    method: 'POST',
    url: 'http://x/v1/pets',
    headers: { authorization: 'Bearer secret-keyx' },
    body: '{"categoryId":9223372036854775807}',
  },
  response: {
    status: 500,
    headers: { 'content-type': 'application/json' },
    text: `{"boom":"\u0001\u001b[31mred\nline ${'x'.repeat(300)}"}`,
    json: undefined,
    size: 5000,
  },
} as unknown as Exchange;

const crashed: CaseResult = {
  operationId: 'getPet',
  method: 'GET',
  path: '/pets/{petId}',
  check: 'custom-check',
  description: '',
  status: 'errored',
  failures: [],
  error: 'TypeError: boom (at file:///x/check.ts:3:9)',
  durationMs: 2,
};

const summary: RunSummary = {
  runId: 'r1',
  seed: 7,
  baseUrl: 'http://x/v1?a=1--2',
  specFile: 'spec.yaml',
  checks: ['not-a-server-error', 'deprecation-signalled', 'custom-check'],
  operations: ['createPet', 'getPet'],
  readOnly: false,
  startedAt: '2026-01-01T00:00:00.000Z',
  durationMs: 1234,
  requests: 3,
  errors: 2,
  warnings: 1,
  errored: 1,
  failureCount: 104,
  strict: false,
  hints: ["every operation answered 404: did you mean http://x/v1? (the document's servers are under /v1)"],
  exitCode: 1,
  cases: [
    {
      operationId: 'createPet',
      method: 'POST',
      path: '/pets',
      check: 'not-a-server-error',
      description: '',
      status: 'failed',
      failureCount: 103,
      durationMs: 1500,
      failures: [
        {
          check: 'not-a-server-error',
          operationId: 'createPet',
          severity: 'error',
          title: 'server error 500 for <weird> & "quoted" \ud800',
          expected: 'below 500',
          actual: '500',
          exchange,
          occurrences: 100,
          alsoSeen: ['server error 500 for another body'],
        },
        {
          check: 'not-a-server-error',
          operationId: 'createPet',
          severity: 'error',
          title: 'no response: connection reset by the server',
          exchange: { ...exchange, response: undefined, error: 'connection reset by the server' },
          occurrences: 3,
          alsoSeen: [],
        },
      ],
    },
    {
      operationId: 'getPet',
      method: 'GET',
      path: '/pets/{petId}',
      check: 'deprecation-signalled',
      description: '',
      status: 'warned',
      durationMs: 0,
      failures: [
        {
          check: 'deprecation-signalled',
          operationId: 'getPet',
          severity: 'warning',
          title: 'no Sunset header',
          occurrences: 1,
          alsoSeen: [],
        },
      ],
    },
    {
      operationId: 'getPet',
      method: 'GET',
      path: '/pets/{petId}',
      check: 'not-a-server-error',
      description: '',
      status: 'skipped',
      failures: [],
      skipReason: 'nothing sent',
    },
    crashed,
  ],
};

const parser = new XMLParser({
  ignoreAttributes: false,
  isArray: (name) => ['testsuite', 'testcase', 'failure'].includes(name),
});

describe('JUnit report', () => {
  it('is valid XML: a suite per operation, a case per check, one failure per case (a case per unique finding)', () => {
    const xml = junitXml(summary, 'secret-key');
    expect(XMLValidator.validate(xml)).toBe(true);
    const parsed = parser.parse(xml);
    // Two findings of one check: two cases; the warned check: one; the crashed: one; not applicable: left out.
    expect(parsed.testsuites['@_tests']).toBe('4');
    expect(parsed.testsuites['@_failures']).toBe('2');
    expect(parsed.testsuites['@_errors']).toBe('1');
    expect(parsed.testsuites['@_skipped']).toBe('0');
    expect(parsed.testsuites['@_time']).toBe('1.234');
    const [create, get] = parsed.testsuites.testsuite;
    expect(create['@_name']).toBe('createPet (POST /pets)');
    expect(create['@_time']).toBe('1.500');
    expect(create.testcase).toHaveLength(2);
    for (const item of create.testcase) expect(item.failure).toHaveLength(1);
    const [first, second] = create.testcase;
    expect(first['@_name']).toBe('not-a-server-error: server error 500 for <weird> & "quoted" \\ud800');
    expect(first['@_time']).toBe('1.500');
    expect(first.failure[0]['@_message']).toBe('server error 500 for <weird> & "quoted" \\ud800 (seen 100 times)');
    expect(first.failure[0]['#text']).toContain('replay:   curl -i -X POST');
    expect(first.failure[0]['#text']).toContain('seen:     100 times; also: server error 500 for another body');
    expect(second['@_time']).toBe('0.000');
    expect(second.failure[0]['@_message']).toBe('no response: connection reset by the server (seen 3 times)');
    expect(xml).not.toContain('secret-key');
    expect(get.testcase[0]['system-out']).toContain('WARNING: no Sunset header');
    // The not-applicable case is not a test case: it is counted in a property.
    expect(get.testcase).toHaveLength(2);
    expect(get.properties.property).toMatchObject({ '@_name': 'kennel.not-applicable', '@_value': '1' });
    expect(get.testcase[1].error['@_message']).toBe('the check crashed: TypeError: boom (at file:///x/check.ts:3:9)');
    expect(get['@_errors']).toBe('1');
  });

  it('counts warnings as failures with --strict', () => {
    const parsed = parser.parse(junitXml({ ...summary, strict: true }, 'secret-key'));
    expect(parsed.testsuites['@_failures']).toBe('3');
    expect(parsed.testsuites.testsuite[1].testcase[0].failure[0]['@_type']).toBe('warning');
  });

  it('marks an interrupted run as an error, never as green', () => {
    const interrupted = { ...summary, cases: [], errors: 0, stopped: 'interrupted by SIGINT', exitCode: 2 as const };
    const xml = junitXml(interrupted, 'secret-key');
    expect(XMLValidator.validate(xml)).toBe(true);
    const parsed = parser.parse(xml);
    expect(parsed.testsuites['@_errors']).toBe('1');
    expect(parsed.testsuites.testsuite[0].testcase[0].error).toMatchObject({
      '@_message': 'interrupted by SIGINT',
      '@_type': 'interrupted',
    });
    // --max-failures stops a run too, but what it found is the verdict: no error added.
    const limited = junitXml({ ...summary, stopped: 'stopped after 2 failures (--max-failures 2)', exitCode: 1 }, '');
    expect(parser.parse(limited).testsuites['@_errors']).toBe('1');
  });

  it('says why when the run could not start', () => {
    const xml = junitForToolError('cannot reach http://x/v1: connection refused');
    expect(XMLValidator.validate(xml)).toBe(true);
    expect(parser.parse(xml).testsuites.testsuite[0].testcase[0].error['@_message']).toBe(
      'cannot reach http://x/v1: connection refused',
    );
  });
});

describe('JSON report', () => {
  it('keeps integers exact, adds a curl line and the count of each finding, and never the key', () => {
    const text = jsonReport(summary, 'secret-key');
    const report = JSON.parse(text);
    expect(report).toMatchObject({ seed: 7, errors: 2, errored: 1, failureCount: 104, hints: summary.hints });
    expect(report.cases[0].failures[0]).toMatchObject({
      occurrences: 100,
      alsoSeen: ['server error 500 for another body'],
      request: { method: 'POST', url: 'http://x/v1/pets' },
      response: { status: 500, size: 5000 },
    });
    expect(report.cases[0].failures[0].curl).toContain('"authorization: Bearer ${KENNEL_API_KEY}x"');
    expect(report.cases[3]).toMatchObject({ status: 'errored', error: crashed.error });
    expect(text).not.toContain('secret-key');
    expect(text).toContain('9223372036854775807');
  });
});

describe('console report', () => {
  function output(run: RunSummary): string {
    let text = '';
    const reporter = consoleReporter((chunk) => (text += chunk), 'secret-key');
    reporter.runStart?.(run);
    for (const result of run.cases) reporter.caseResult?.(result);
    void reporter.runEnd?.(run);
    return text;
  }

  it('shows each unique finding once, errors first, with a short excerpt of the body and a replay line', () => {
    const text = output(summary);
    expect(text).toContain('Findings: 3 unique findings from 104 failures');
    expect(text).toContain('  FAIL  not-a-server-error  2 errors (103 failures)');
    expect(text).toContain('  ERR   custom-check  the check crashed (see below)');
    const lines = text.split('\n');
    const response = lines.find((line) => line.startsWith('    response: '))!;
    // Control characters (a terminal escape sequence included) are shown escaped, the excerpt is short.
    expect(response).toMatch(
      /^ {4}response: 500 application\/json, 5,000 bytes: \{"boom":"\\u0001\\u001b\[31mred line x+…$/,
    );
    expect(response.length).toBeLessThan(220);
    expect(text).not.toContain('\u001b');
    expect(lines).toContain(
      `    replay:   curl -i -X POST 'http://x/v1/pets' -H "authorization: Bearer \${KENNEL_API_KEY}x" --data-raw '{"categoryId":9223372036854775807}'`,
    );
    expect(lines).toContain('ERROR createPet · not-a-server-error: server error 500 for <weird> & "quoted" \\ud800');
    expect(text).toContain('    seen:     100 times; also: server error 500 for another body');
    expect(text.indexOf('ERROR createPet')).toBeLessThan(text.indexOf('WARNING getPet'));
    expect(text.indexOf('WARNING getPet')).toBeLessThan(text.indexOf('ERRORED getPet · custom-check'));
    expect(text).toContain('hint: every operation answered 404: did you mean http://x/v1?');
    expect(text).toContain('1 crashed, 1 skipped · 3 requests in 1.23 s');
    expect(text).not.toContain('secret-key');
  });

  it('says when the run stopped early', () => {
    expect(output({ ...summary, stopped: 'stopped at the first failure (--exitfirst)' })).toContain(
      'stopped: stopped at the first failure (--exitfirst)',
    );
  });
});
