import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { runContract, startMock, type RunningMock } from '../../src/index.js';
import { PETSTORE_SPEC } from '../../src/assets.js';

const TASKS = fileURLToPath(new URL('../fixtures/contract/tasks.yaml', import.meta.url));
const KEY = 'cleanup-key';

let mock: RunningMock | undefined;
afterEach(async () => {
  await mock?.close();
  mock = undefined;
});

async function itemCount(url: string): Promise<number> {
  const response = await fetch(url, { headers: { 'x-api-key': KEY, authorization: `Bearer ${KEY}` } });
  return ((await response.json()) as unknown[]).length;
}

/** The counts a report shows, without timings. */
function counts(summary: Awaited<ReturnType<typeof runContract>>) {
  const by = (status: string) => summary.cases.filter((result) => result.status === status).length;
  return {
    exitCode: summary.exitCode,
    errors: summary.errors,
    warnings: summary.warnings,
    passed: by('passed'),
    skipped: by('skipped'),
    failed: by('failed'),
    requests: summary.requests,
  };
}

describe('a run cleans up what it created', { timeout: 120_000 }, () => {
  it('deletes its items where the document has a delete: two runs with one seed give the same counts', async () => {
    mock = await startMock({ specPath: TASKS, apiKeys: [KEY] });
    const before = await itemCount(`${mock.url}/tasks?limit=100`);
    const first = await runContract({ baseUrl: mock.url, apiKey: KEY, specPath: TASKS, seed: 11 });
    expect(first.cleanup?.deleted).toBeGreaterThan(0);
    expect(first.cleanup?.left).toEqual([]);
    expect(await itemCount(`${mock.url}/tasks?limit=100`)).toBe(before);
    const second = await runContract({ baseUrl: mock.url, apiKey: KEY, specPath: TASKS, seed: 11 });
    expect(counts(second)).toEqual(counts(first));
  });

  it('says what it could not delete: the Pet Store documents no delete', async () => {
    mock = await startMock({ specPath: PETSTORE_SPEC, apiKeys: [KEY] });
    const summary = await runContract({ baseUrl: mock.url, apiKey: KEY, seed: 2, checks: ['resource-round-trip'] });
    expect(summary.cleanup?.deleted).toBe(0);
    expect(summary.cleanup?.left.length).toBeGreaterThan(0);
    expect(summary.cleanup?.left[0]).toEqual({
      url: expect.stringMatching(new RegExp(`^${mock.url}/pets/\\d+$`)),
      reason: 'the document has no delete for /pets',
    });
  });
});
