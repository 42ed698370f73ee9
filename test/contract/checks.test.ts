import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runContract, type ContractOptions, type RunSummary } from '../../src/contract/run/runner.js';
import { ALL_CHECKS, RESPONSE_CHECKS, SCENARIO_CHECKS } from '../../src/contract/checks/registry.js';
import { PETSTORE_SPEC } from '../../src/assets.js';
import { startMock, type RunningMock } from '../../src/serve/server.js';
import { checkReference, HEADERS_SPEC, PRODUCERS, startHeadersServer, statusesOf } from './helpers.js';
import type { Fault, Variant } from './reference-petstore.js';

/**
 * Each check, and a deliberately broken deployment that only it (among the selected) must catch;
 * for a response check, the scenario checks whose requests show the fault, beyond the producers'.
 */
const DETECTIONS: [
  check: string,
  broken: { fault?: Fault; variant?: Partial<Variant> },
  expected: 'failed' | 'warned',
  shownBy?: readonly string[],
][] = [
  ['not-a-server-error', { fault: 'malformed-json-500' }, 'failed', ['negative-data-rejection']],
  ['status-code-conformance', { fault: 'create-200' }, 'failed'],
  ['content-type-conformance', { fault: 'text-plain-json' }, 'failed'],
  ['response-schema-conformance', { fault: 'id-as-string' }, 'failed'],
  ['error-body-conformance', { fault: 'error-status-mismatch' }, 'failed', ['negative-data-rejection']],
  ['deprecation-signalled', { variant: { deprecationHeaders: false } }, 'warned'],
  ['auth-enforced', { fault: 'any-token' }, 'failed'],
  ['positive-data-acceptance', { fault: 'pending-rejected' }, 'failed'],
  ['negative-data-rejection', { fault: 'missing-name-accepted' }, 'failed'],
  ['resource-round-trip', { fault: 'name-truncated' }, 'failed'],
  ['server-assigned-id', { fault: 'client-id-honoured' }, 'failed'],
  ['id-uniqueness', { fault: 'duplicate-ids-concurrent' }, 'failed'],
  ['not-found-conformance', { fault: 'not-found-200-null' }, 'failed'],
  ['filter-honoured', { fault: 'filter-ignored' }, 'failed'],
  ['data-fidelity', { fault: 'name-nfc-normalised' }, 'failed'],
  ['list-freshness', { fault: 'list-replica-lag' }, 'failed'],
  ['collection-consistency', { fault: 'page-boundary-skip' }, 'failed'],
  ['unknown-id-conformance', { fault: 'petid-unicode-digits' }, 'failed'],
  ['location-resolves', { fault: 'location-next-id' }, 'failed'],
  ['id-permanence', { fault: 'pets-evicted' }, 'failed'],
  ['limit-honoured', { fault: 'default-limit-10' }, 'failed'],
  ['auth-scheme-case-insensitive', { fault: 'auth-single-space' }, 'failed'],
  ['auth-challenge-present', { fault: 'no-www-authenticate' }, 'failed', ['auth-enforced']],
  ['auth-before-validation', { fault: 'validation-before-auth' }, 'failed'],
  ['sunset-date-conformance', { fault: 'sunset-wrong-date' }, 'failed'],
  ['deprecation-headers-scoped', { fault: 'deprecation-on-listpets' }, 'failed'],
];

const RESPONSE_CHECK_NAMES = new Set(RESPONSE_CHECKS.map((check) => check.name));

/**
 * A response check judges the scenario checks' requests: its row sends the producers' and those
 * that show the fault (`shownBy`), not every scenario check's. A scenario check sends its own.
 */
function trafficFor(check: string, shownBy: readonly string[] = []): Partial<ContractOptions> {
  if (!RESPONSE_CHECK_NAMES.has(check)) return {};
  const traffic = new Set([...PRODUCERS, ...shownBy]);
  return { excludeChecks: SCENARIO_CHECKS.map((scenario) => scenario.name).filter((name) => !traffic.has(name)) };
}

describe('every check catches its deliberately broken deployment', () => {
  it('covers every check of the registry (some below, others in their own files)', () => {
    const covered = new Set([
      ...DETECTIONS.map(([check]) => check),
      'response-headers-conformance',
      'links-followed', // the Pet Store documents no links
      'resource-lifecycle', // the Pet Store has no PUT, PATCH or DELETE: see resource-lifecycle.test.ts
      'pagination-followed', // the Pet Store's list has no pages: see coachline.test.ts
      'unknown-reference-refused', // the Pet Store's bodies name no other resource: see coachline.test.ts
      'body-links-resolve', // the Pet Store's bodies hold no links: see body-links.test.ts
      'read-returns-requested', // see item-life.test.ts
      'reads-scoped-to-parent', // the Pet Store has no sub-resources: see parent-scoped-reads.test.ts
      'conditional-requests', // the Pet Store documents no ETag: see tasklists.test.ts
      'ids-never-reused', // see item-life.test.ts
    ]);
    expect([...covered].sort()).toEqual(ALL_CHECKS.map((check) => check.name).sort());
  });

  it.each(DETECTIONS)('%s', async (check, broken, expected, shownBy) => {
    const summary = await checkReference(broken, { checks: [check], ...trafficFor(check, shownBy) });
    expect(statusesOf(summary, check)).toContain(expected);
    expect(summary.exitCode).toBe(expected === 'failed' ? 1 : 0);
    // not-a-server-error judges every run: a 5xx is a finding whichever check's request met it.
    expect(new Set(summary.cases.map((result) => result.check))).toEqual(new Set([check, 'not-a-server-error']));
    if (expected === 'warned')
      expect(
        (await checkReference(broken, { checks: [check], strict: true, ...trafficFor(check, shownBy) })).exitCode,
      ).toBe(1);
  });

  it.each([
    ['absent', undefined, 'required header x-total-count is missing'],
    ['not an integer', 'many', 'header x-total-count must be integer'],
    ['below its minimum', '-1', 'header x-total-count must be >= 0'],
  ])('response-headers-conformance: a required header %s', async (_label, header, title) => {
    const server = await startHeadersServer(header);
    try {
      const summary = await runContract({
        baseUrl: server.url,
        apiKey: 'unused',
        specPath: HEADERS_SPEC,
        seed: 1,
        checks: ['response-headers-conformance'],
      });
      expect(summary.cases.flatMap((result) => result.failures.map((failure) => failure.title))).toContainEqual(
        expect.stringContaining(title),
      );
      expect(summary.exitCode).toBe(1);
    } finally {
      await server.close();
    }
  });

  it('response-headers-conformance passes a server that sends the header right', async () => {
    const server = await startHeadersServer('2');
    try {
      const summary = await runContract({
        baseUrl: server.url,
        apiKey: 'unused',
        specPath: HEADERS_SPEC,
        seed: 1,
        checks: ['response-headers-conformance'],
      });
      expect(statusesOf(summary, 'response-headers-conformance')).toEqual(['passed']);
    } finally {
      await server.close();
    }
  });
});

describe('no false positive against kennel serve', () => {
  let mock: RunningMock;
  let summary: RunSummary;
  beforeAll(async () => {
    mock = await startMock({ apiKeys: ['contract-key'] });
    summary = await runContract({ baseUrl: mock.url, apiKey: 'contract-key', specPath: PETSTORE_SPEC, seed: 5 });
  });
  afterAll(() => mock.close());

  it('exits 0 with no error finding', () => {
    expect(summary.errors).toBe(0);
    expect(summary.exitCode).toBe(0);
  });

  it.each(ALL_CHECKS.map((check) => check.name))('%s never fails', (check) => {
    const statuses = statusesOf(summary, check);
    expect(statuses.length).toBeGreaterThan(0);
    expect(statuses).not.toContain('failed');
  });

  it("only kennel's documented rejection of a bad limit or status is a warning", () => {
    const warnings = summary.cases.flatMap((result) =>
      result.failures
        .filter((failure) => failure.severity === 'warning')
        .map(() => `${result.operationId} ${result.check}`),
    );
    expect(new Set(warnings)).toEqual(new Set(['listPets status-code-conformance']));
  });

  it('the same seed replays the same requests', async () => {
    const again = await runContract({
      baseUrl: mock.url,
      apiKey: 'contract-key',
      specPath: PETSTORE_SPEC,
      seed: 5,
      checks: ['negative-data-rejection'],
    });
    const first = await runContract({
      baseUrl: mock.url,
      apiKey: 'contract-key',
      specPath: PETSTORE_SPEC,
      seed: 5,
      checks: ['negative-data-rejection'],
    });
    expect(again.requests).toBe(first.requests);
  });
});

describe('a 5xx is a finding whichever check met it', () => {
  it('with only a scenario check selected, and on operations outside --operation', async () => {
    const summary = await checkReference(
      { fault: 'intermittent-500' },
      { checks: ['resource-round-trip'], operations: ['createPet'] },
    );
    const serverErrors = summary.cases.filter(
      (result) => result.check === 'not-a-server-error' && result.status === 'failed',
    );
    expect(serverErrors.map((result) => result.operationId)).toContain('createPet');
    expect(serverErrors.some((result) => result.operationId !== 'createPet')).toBe(true);
    expect(summary.exitCode).toBe(1);
  });

  it('unless excluded by name', async () => {
    const summary = await checkReference(
      { fault: 'intermittent-500' },
      { checks: ['auth-enforced'], excludeChecks: ['not-a-server-error'] },
    );
    expect(summary.cases.some((result) => result.check === 'not-a-server-error')).toBe(false);
  });
});
