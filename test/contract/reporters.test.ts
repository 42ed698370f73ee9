import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import { junitXml } from '../../src/contract/reporters/junit.js';
import { jsonReport } from '../../src/contract/reporters/json.js';
import type { RunSummary } from '../../src/contract/runner.js';
import type { Exchange } from '../../src/contract/types.js';

const exchange = {
  purpose: 'a body where <weird> & "quoted"',
  request: {
    method: 'POST',
    url: 'http://x/v1/pets',
    headers: { authorization: 'Bearer secret-key' },
    body: '{"categoryId":9223372036854775807}',
  },
  response: { status: 500, headers: {}, text: 'boom\u0001', json: undefined },
} as unknown as Exchange;

const summary: RunSummary = {
  runId: 'r1',
  seed: 7,
  baseUrl: 'http://x/v1',
  specFile: 'spec.yaml',
  checks: ['not-a-server-error', 'deprecation-signalled'],
  operations: ['createPet', 'getPet'],
  readOnly: false,
  startedAt: '2026-01-01T00:00:00.000Z',
  durationMs: 1234,
  requests: 3,
  errors: 1,
  warnings: 1,
  strict: false,
  exitCode: 1,
  cases: [
    {
      operationId: 'createPet',
      method: 'POST',
      path: '/pets',
      check: 'not-a-server-error',
      description: '',
      status: 'failed',
      failures: [
        {
          check: 'not-a-server-error',
          operationId: 'createPet',
          severity: 'error',
          title: 'server error 500 for <weird> & "quoted"',
          expected: 'below 500',
          actual: '500',
          exchange,
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
      failures: [
        { check: 'deprecation-signalled', operationId: 'getPet', severity: 'warning', title: 'no Sunset header' },
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
  ],
};

const parser = new XMLParser({
  ignoreAttributes: false,
  isArray: (name) => ['testsuite', 'testcase', 'failure'].includes(name),
});

describe('JUnit report', () => {
  it('is valid XML with one suite per operation and one case per check, escaped', () => {
    const xml = junitXml(summary, 'secret-key');
    expect(XMLValidator.validate(xml)).toBe(true);
    const parsed = parser.parse(xml);
    expect(parsed.testsuites['@_tests']).toBe('3');
    expect(parsed.testsuites['@_failures']).toBe('1');
    expect(parsed.testsuites['@_skipped']).toBe('1');
    const [create, get] = parsed.testsuites.testsuite;
    expect(create['@_name']).toBe('createPet (POST /pets)');
    expect(create.testcase[0].failure[0]['@_message']).toBe('server error 500 for <weird> & "quoted"');
    expect(create.testcase[0].failure[0]['#text']).toContain('replay:   curl -i -X POST');
    expect(xml).not.toContain('secret-key');
    expect(get.testcase[0]['system-out']).toContain('WARNING: no Sunset header');
    expect(get.testcase[1].skipped['@_message']).toBe('nothing sent');
  });

  it('counts warnings as failures with --strict', () => {
    const parsed = parser.parse(junitXml({ ...summary, strict: true }, 'secret-key'));
    expect(parsed.testsuites['@_failures']).toBe('2');
    expect(parsed.testsuites.testsuite[1].testcase[0].failure[0]['@_type']).toBe('warning');
  });
});

describe('JSON report', () => {
  it('keeps integers exact, adds a curl line, and never the key', () => {
    const text = jsonReport(summary, 'secret-key');
    const report = JSON.parse(text);
    expect(report.seed).toBe(7);
    expect(report.cases[0].failures[0]).toMatchObject({
      request: { method: 'POST', url: 'http://x/v1/pets' },
      response: { status: 500 },
    });
    expect(report.cases[0].failures[0].curl).toContain('$KENNEL_API_KEY');
    expect(text).not.toContain('secret-key');
    expect(text).toContain('9223372036854775807');
  });
});
