// The figure: a small server with 5 bugs gave 323 errors over 2,399 lines, 101 of them one
// bug split by array index. Findings are grouped by check, operation and JSON pointer (indices as
// `*`): five faults give about five findings, each with a count, an example and a curl line.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { FIVE_FAULTS, startFiveFaultServer, type FiveFaultServer } from './unique-findings-server.js';

let server: FiveFaultServer;
/** The JSON report: findings with their first example's request and a curl line. */
interface Report {
  errors: number;
  warnings: number;
  failureCount: number;
  cases: {
    operationId: string;
    check: string;
    failures: {
      severity: string;
      operationId: string;
      occurrences: number;
      pointerPattern?: string;
      found?: string;
      request?: { url: string };
      curl?: string;
    }[];
  }[];
}

let summary: Report;
let stdout: string;
beforeAll(async () => {
  server = await startFiveFaultServer();
  const json = path.join(mkdtempSync(path.join(tmpdir(), 'kennel-five-')), 'report.json');
  const cli = runCli(['check', '--base-url', server.url, '--seed', '8', '--json', json], {
    KENNEL_API_KEY: server.apiKey,
  });
  expect(await cli.code).toBe(1);
  stdout = cli.stdout();
  summary = JSON.parse(readFileSync(json, 'utf8')) as Report;
});
afterAll(() => server.close());

const WHERE: Record<keyof typeof FIVE_FAULTS, string> = {
  stringIds: 'listPets',
  bigLimit500: 'listPets',
  createUnprotected: 'createPet',
  create200: 'createPet',
  notFoundWithoutStatus: 'getPet',
};

function errorFindings(run: Report) {
  return run.cases.flatMap((result) =>
    result.failures.filter((item) => item.severity === 'error').map((item) => ({ ...item, check: result.check })),
  );
}

describe('a deployment with five faults', () => {
  it.each(Object.entries(FIVE_FAULTS))('reports %s once, with a count, an example and a curl line', (fault, check) => {
    const found = errorFindings(summary).filter(
      (item) => item.check === check && item.operationId === WHERE[fault as keyof typeof FIVE_FAULTS],
    );
    expect(found, `${fault}: ${check}`).toHaveLength(1);
    expect(found[0]!.request?.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1\//);
    expect(found[0]!.curl).toMatch(/^curl -i -X [A-Z]+ 'http:\/\/127\.0\.0\.1:\d+\/v1\/pets/);
  });

  it('gives about five unique findings (a few related ones) out of hundreds of failures', () => {
    const errors = errorFindings(summary);
    expect(summary.errors).toBe(errors.length);
    expect(errors.length).toBeGreaterThanOrEqual(5);
    expect(errors.length).toBeLessThanOrEqual(10);
    expect(summary.failureCount).toBeGreaterThan(100);
    const byIndex = errors.find((item) => item.check === FIVE_FAULTS.stringIds && item.operationId === 'listPets')!;
    expect(byIndex).toMatchObject({ pointerPattern: '/*/id', found: expect.stringMatching(/^"\d+"$/) });
    expect(byIndex.occurrences).toBeGreaterThan(20);
  });

  it('the console report stays short: one block per finding, each with a replay line', () => {
    const lines = stdout.split('\n');
    expect(lines.length).toBeLessThan(250);
    const blocks = lines.filter((line) => /^(ERROR|WARNING) /.test(line));
    expect(blocks).toHaveLength(summary.errors + summary.warnings);
    expect(lines.filter((line) => line.startsWith('    replay:   curl ')).length).toBeGreaterThanOrEqual(5);
    expect(lines.filter((line) => line.startsWith('ERROR listPets · response-schema-conformance'))).toHaveLength(1);
    expect(stdout).toContain(`does not conform: ${summary.errors} error(s)`);
    expect(stdout).toMatch(/Findings: \d+ unique findings from \d{3,} failures/);
  });
});
