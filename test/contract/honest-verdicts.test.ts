import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consoleReporter } from '../../src/contract/reporters/console.js';
import { jsonReport } from '../../src/contract/reporters/json.js';
import { junitXml } from '../../src/contract/reporters/junit.js';
import { runContract, type CaseResult, type ContractOptions, type RunSummary } from '../../src/contract/run/runner.js';
import { startMock } from '../../src/serve/server.js';
import { findingTitles, onlyChecks } from './helpers.js';
import { MEMOS_SPEC, startMemosServer, type MemosFault, type MemosVariant } from './memos-server.js';

async function checkMemos(
  faults: readonly MemosFault[] = [],
  variants: readonly MemosVariant[] = [],
  write?: (text: string) => void,
  run: Partial<ContractOptions> = {},
): Promise<RunSummary> {
  const server = await startMemosServer(faults, variants);
  try {
    const listeners = write ? [consoleReporter(write, '')] : [];
    return await runContract({ baseUrl: server.url, apiKey: '', specPath: MEMOS_SPEC, seed: 3, ...run }, listeners);
  } finally {
    await server.close();
  }
}

function caseOf(summary: RunSummary, check: string, operationId: string): CaseResult {
  const found = summary.cases.find((result) => result.check === check && result.operationId === operationId);
  if (!found) throw new Error(`no case ${check} on ${operationId}`);
  return found;
}

describe('a correct deployment of memos.yaml', () => {
  let summary: RunSummary;
  beforeAll(async () => {
    summary = await checkMemos();
  });

  it('conforms: nothing unexercised, every operation reached a documented success', () => {
    // listPins documents no 4xx: its refusal of `boardId=abc` is a warning, nothing more.
    expect(findingTitles(summary).filter((title) => !title.includes('listPins'))).toEqual([]);
    expect(findingTitles(summary, 'error')).toEqual([]);
    expect(summary.cases.filter((result) => result.status === 'unexercised')).toEqual([]);
    expect(summary.coverage?.operations).toEqual({ succeeded: 7, total: 7 });
    expect(summary.exitCode).toBe(0);
  });

  it('a parent id nothing lists or creates: skipped (no way to learn one), not "not exercised"', () => {
    expect(caseOf(summary, 'positive-data-acceptance', 'listPins')).toMatchObject({
      status: 'skipped',
      skipReason: expect.stringContaining('the document gives no way to learn a value for {boardId}'),
    });
  });

  it('never demands the writeOnly secret in a response, nor the readOnly id in a request', () => {
    for (const check of [
      'response-schema-conformance',
      'resource-round-trip',
      'data-fidelity',
      'negative-data-rejection',
    ])
      expect(caseOf(summary, check, 'createMemo').status, check).toBe('passed');
    expect(caseOf(summary, 'response-schema-conformance', 'getMemo').status).toBe('passed');
  });
});

describe('a check that never got what it needs says "not exercised", never "ok"', () => {
  let summary: RunSummary;
  let text = '';
  beforeAll(async () => {
    summary = await checkMemos(['tags-refused'], [], (chunk) => (text += chunk));
  });

  it.each(['resource-round-trip', 'id-uniqueness', 'server-assigned-id', 'data-fidelity', 'location-resolves'])(
    '%s on createTag',
    (check) => {
      const result = caseOf(summary, check, 'createTag');
      expect(result.status).toBe('unexercised');
      expect(result.unexercisedReason).toMatch(/answered (2xx: )?400/);
    },
  );

  it('says how many creates got what: "none of N creates answered 2xx: 400 ×N"', () => {
    expect(caseOf(summary, 'resource-round-trip', 'createTag').unexercisedReason).toMatch(
      /^none of (\d+) creates answered 2xx: 400 ×\1$/,
    );
  });

  it('a refused body the document does not say suffices is a warning, and judged nothing', () => {
    const result = caseOf(summary, 'positive-data-acceptance', 'createTag');
    expect(result.status).toBe('unexercised');
    expect(result.failures.map((item) => item.severity)).toEqual(expect.arrayContaining(['warning']));
    expect(result.failures.filter((item) => item.severity === 'error')).toEqual([]);
  });

  it('coverage names the operation that never reached a documented success, and what it got', () => {
    expect(summary.coverage?.operations).toEqual({ succeeded: 5, total: 7 });
    expect(summary.coverage?.unsucceeded).toContainEqual({
      operationId: 'createTag',
      got: expect.stringMatching(/^400 ×\d+$/),
    });
  });

  it('conforms where exercised (exit 0), and every report makes the gaps impossible to miss', () => {
    expect(summary.errors).toBe(0);
    expect(summary.exitCode).toBe(0);
    expect(summary.unexercised).toBeGreaterThanOrEqual(5);
    expect(text).toContain('NOT EXERCISED createTag · resource-round-trip: none of');
    expect(text).toMatch(/NONE  resource-round-trip  not exercised: none of \d+ creates answered 2xx/);
    expect(text).toMatch(/not exercised: \d+ checks judged nothing/);
    expect(text).toContain('conforms where exercised');
    expect(text).toMatch(/coverage: 5\/7 operations reached a documented success \(not createTag: 400 ×\d+/);
    const junit = junitXml(summary, '');
    // Listed as skipped with the reason: CI tools show it, and it fails nothing (--require-exercised does).
    expect(junit).toMatch(/name="resource-round-trip"[^\n]*>\n\s*<skipped message="not exercised: none of \d+ creates/);
    expect(junit).not.toContain('type="not-exercised"');
    const json = JSON.parse(jsonReport(summary, '')) as { cases: CaseResult[]; unexercised: number };
    expect(json.unexercised).toBe(summary.unexercised);
    expect(json.cases.find((item) => item.check === 'id-uniqueness' && item.operationId === 'createTag')).toMatchObject(
      {
        status: 'unexercised',
        unexercisedReason: expect.stringMatching(/^none of 10 concurrent creates answered 2xx: 400 ×10$/),
      },
    );
  });
});

describe('--require-exercised makes what could not be exercised fail the run', () => {
  it('exits 2 with the cases listed, each an error in JUnit', async () => {
    const server = await startMemosServer(['tags-refused']);
    let text = '';
    try {
      const summary = await runContract(
        { baseUrl: server.url, apiKey: '', specPath: MEMOS_SPEC, seed: 3, requireExercised: true },
        [consoleReporter((chunk) => (text += chunk), '')],
      );
      expect(summary.unexercised).toBeGreaterThan(0);
      expect(summary.exitCode).toBe(2);
      expect(text).toContain('NOT EXERCISED createTag · resource-round-trip');
      expect(text).toContain('they fail the run (--require-exercised)');
      expect(text).toContain('could not be fully checked');
      expect(junitXml(summary, '')).toContain('type="not-exercised"');
    } finally {
      await server.close();
    }
  });
});

// A fault's run has the check that owns it and the producers (helpers.ts); the correct deployment
// and variants run every check.
describe('each fault of memos.yaml is caught by the check that owns it', () => {
  // The last element: the scenario checks whose requests show the fault (a read, a read of an unknown id).
  it.each<[MemosFault, string, string, string[]?]>([
    ['memo-text-dropped', 'response-schema-conformance', 'createMemo: 201 body: /text is required'],
    [
      'memo-secret-optional',
      'negative-data-rejection',
      'createMemo: accepted a body where required /secret is missing',
    ],
    [
      'attachment-size-missing',
      'response-schema-conformance',
      'getMemo: 200 body: /attachment/size is required',
      ['resource-round-trip'],
    ],
    [
      'plain-json-problems',
      'content-type-conformance',
      'getMemo: Content-Type application/json for getMemo for id',
      ['not-found-conformance'],
    ],
    ['tag-created-text', 'response-schema-conformance', 'createTag: 201 body: /created must be integer'],
  ])('%s: %s', async (fault, check, title, traffic = []) => {
    const summary = await checkMemos([fault], [], undefined, onlyChecks(check, ...traffic));
    expect(findingTitles(summary, 'error')).toContainEqual(expect.stringContaining(`${check} ${title}`));
    expect(summary.exitCode).toBe(1);
  });

  it('an anyOf failure is told by the closest branch, not by every branch', async () => {
    const summary = await checkMemos(
      ['attachment-size-missing'],
      [],
      undefined,
      onlyChecks('response-schema-conformance', 'resource-round-trip'),
    );
    const titles = findingTitles(summary).filter(
      (title) => title.startsWith('response-schema-conformance') && title.includes('/attachment'),
    );
    expect(titles.length).toBeGreaterThan(0);
    expect(titles.filter((title) => !title.includes('/attachment/size is required'))).toEqual([]);
  });
});

describe('correct variants the checker must not call wrong', () => {
  it('refusing `{}` for a schema without `required` (a documented 400) is only a warning', async () => {
    const summary = await checkMemos([], ['tag-label-needed']);
    expect(caseOf(summary, 'positive-data-acceptance', 'createTag').status).toBe('warned');
    expect(caseOf(summary, 'resource-round-trip', 'createTag').status).toBe('passed');
    expect(summary.exitCode).toBe(0);
  });

  it("the document's own example breaking its schema, served as is, is only a warning", async () => {
    const summary = await checkMemos([], ['tag-created-example']);
    expect(findingTitles(summary, 'warning')).toContainEqual(
      expect.stringContaining(
        "createTag: 201 body: /created must be integer (the document's own example breaks its schema)",
      ),
    );
    expect(summary.exitCode).toBe(0);
  });

  it('problem+json where the document says application/json is only a warning', async () => {
    const summary = await checkMemos([], ['problem-json-tags']);
    expect(caseOf(summary, 'content-type-conformance', 'getTag').status).toBe('warned');
    expect(summary.exitCode).toBe(0);
  });
});

describe('kennel serve and kennel check agree on memos.yaml', () => {
  let mock: Awaited<ReturnType<typeof startMock>>;
  beforeAll(async () => {
    mock = await startMock({ specPath: MEMOS_SPEC, apiKeys: ['k'] });
  });
  afterAll(() => mock.close());

  it('conforms with nothing unexercised', async () => {
    const summary = await runContract({ baseUrl: mock.url, apiKey: 'k', specPath: MEMOS_SPEC, seed: 3 });
    expect(findingTitles(summary, 'error')).toEqual([]);
    expect(summary.cases.filter((result) => result.status === 'unexercised').map((result) => result.check)).toEqual([]);
    expect(summary.exitCode).toBe(0);
  });
});
