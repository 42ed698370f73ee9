// Issue 9, items 4 and 6: the checker plans on the resource model the mock uses, and follows an
// item through its life (create, PUT, PATCH, DELETE, each read back). A correct server for
// fixtures/contract/tasks.yaml passes, each broken step is caught, and kennel's own mock serving
// the same document passes too.
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { idUniqueness } from '../../src/contract/checks/id-uniqueness.js';
import { resourceLifecycle } from '../../src/contract/checks/resource-lifecycle.js';
import { resourceRoundTrip } from '../../src/contract/checks/resource-round-trip.js';
import { buildPlan } from '../../src/contract/prepare/plan.js';
import { findingTitles } from './helpers.js';
import { runContract, type RunSummary } from '../../src/contract/run/runner.js';
import { loadDocument } from '../../src/openapi/load.js';
import { startTestMock } from '../helpers/mock-client.js';
import { TASKS_SPEC, startTasksServer, type TasksFault } from './tasks-server.js';

const KEY = 'tasks-key-3';
const RECEIPTS_SPEC = fileURLToPath(new URL('../fixtures/contract/receipts.yaml', import.meta.url));
const SETTINGS = {
  apiKey: KEY,
  readOnly: false,
  maxExamples: 3,
  concurrency: 2,
  runId: 'r',
  namePrefix: 'kennel-r',
  baseUrl: 'http://127.0.0.1/',
};

async function checkTasks(faults: TasksFault[] = [], checks?: string[]): Promise<RunSummary> {
  const server = await startTasksServer(KEY, faults);
  try {
    return await runContract({ baseUrl: server.url, apiKey: KEY, specPath: TASKS_SPEC, seed: 3, checks });
  } finally {
    await server.close();
  }
}

const lifecycle = (summary: RunSummary) => summary.cases.filter((result) => result.check === 'resource-lifecycle');

describe('the plan is the resource model', () => {
  it('gives item operations their roles, and the collection all six', async () => {
    const plan = buildPlan(await loadDocument(TASKS_SPEC));
    expect(
      plan.all.map((operation) => [operation.id, operation.role, operation.collection, operation.idProperty]),
    ).toEqual([
      ['listTasks', 'list', '/tasks', 'id'],
      ['createTask', 'create', '/tasks', 'id'],
      ['getTask', 'read', '/tasks', 'id'],
      ['replaceTask', 'replace', '/tasks', 'id'],
      ['deleteTask', 'delete', '/tasks', 'id'],
      ['updateTask', 'update', '/tasks', 'id'],
    ]);
    const collection = plan.collection('/tasks');
    expect(Object.fromEntries(Object.entries(collection).map(([role, operation]) => [role, operation.id]))).toEqual({
      list: 'listTasks',
      create: 'createTask',
      read: 'getTask',
      replace: 'replaceTask',
      update: 'updateTask',
      delete: 'deleteTask',
    });
    expect(plan.model.resources.map((resource) => resource.path)).toEqual(['/tasks']);
  });

  it('a POST of a oneOf of objects creates; one that documents no body skips the checks that read what it returns', async () => {
    const plan = buildPlan(await loadDocument(RECEIPTS_SPEC));
    const create = plan.all.find((operation) => operation.id === 'createReceipt')!;
    expect([create.role, create.collection, create.idProperty, create.returnsItem]).toEqual([
      'create',
      '/receipts',
      'id',
      false,
    ]);
    for (const check of [idUniqueness, resourceRoundTrip, resourceLifecycle])
      expect(check.skipReason(create, plan, SETTINGS)).toBe('the create documents no resource in its response');
  });

  it('a finder lists the collection’s items but is not its list: it shows only a filtered part', async () => {
    const plan = buildPlan(
      await loadDocument(fileURLToPath(new URL('../fixtures/resources/links.yaml', import.meta.url))),
    );
    const finder = plan.all.find((operation) => operation.id === 'findThings')!;
    expect([finder.role, finder.collection, finder.idProperty]).toEqual(['list', '/things', 'ref']);
    expect(plan.model.resources.find((resource) => resource.path === '/things')?.operations.list).toBeUndefined();
    expect(plan.collection('/things').list).toBeUndefined();
    expect(plan.collection('/things').create?.id).toBe('createThing');
  });

  it('spec/domains.yaml: POST /records (a oneOf of record types) is the create of /records', async () => {
    const plan = buildPlan(await loadDocument(fileURLToPath(new URL('../../spec/domains.yaml', import.meta.url))));
    const create = plan.all.find((operation) => operation.id === 'addRecord')!;
    expect([create.role, create.collection, create.idProperty, create.returnsItem]).toEqual([
      'create',
      '/records',
      'id',
      true,
    ]);
    expect(plan.collection('/records').delete?.id).toBe('removeRecord');
  });
});

describe('resource-lifecycle: create, PUT, PATCH and DELETE, each read back', () => {
  it('passes a correct server: no error anywhere, and the lifecycle ran on the create', async () => {
    const summary = await checkTasks();
    expect(findingTitles(summary, 'error')).toEqual([]);
    expect(lifecycle(summary).find((result) => result.operationId === 'createTask')?.status).toBe('passed');
    expect(summary.exitCode).toBe(0);
  }, 60_000);

  it('catches a PUT the server answers but does not apply', async () => {
    const summary = await checkTasks(['put-ignored'], ['resource-lifecycle']);
    expect(findingTitles(summary, 'error')).toEqual([
      expect.stringMatching(
        /^resource-lifecycle createTask: PUT replaceTask not applied: \/title written "[^"]+", read/,
      ),
    ]);
  }, 60_000);

  it('catches a PATCH that loses the properties it did not touch', async () => {
    const summary = await checkTasks(['patch-drops-fields'], ['resource-lifecycle']);
    expect(findingTitles(summary, 'error')).toEqual([
      expect.stringMatching(
        /^resource-lifecycle createTask: PATCH updateTask changed or lost: \/priority written \d, read \(absent\)/,
      ),
    ]);
  }, 60_000);

  it('catches a DELETE that answers 204 and deletes nothing', async () => {
    const summary = await checkTasks(['delete-ignored'], ['resource-lifecycle']);
    expect(findingTitles(summary, 'error')).toEqual([
      expect.stringMatching(/^resource-lifecycle createTask: deleted \d+ is still readable$/),
    ]);
  }, 60_000);

  it('leaves a DELETE that fails with a 500 to not-a-server-error, which names the lifecycle request', async () => {
    const summary = await checkTasks(['delete-fails'], ['resource-lifecycle', 'not-a-server-error']);
    const failures = summary.cases.flatMap((result) => result.failures);
    expect(failures.map((failure) => `${failure.check} ${failure.operationId}: ${failure.title}`)).toEqual([
      'not-a-server-error deleteTask: server error 500',
    ]);
    // The first DELETE of the run meets it: the lifecycle's, or the one removing a negative case's valid twin.
    expect(failures[0]!.exchange?.purpose).toMatch(
      /^(DELETE of created \d+|deleting the valid twin of the invalid bodies)$/,
    );
  }, 60_000);

  it('location-resolves follows the Location of a create that returns no body (kennel serve, receipts.yaml)', async () => {
    const mock = await startTestMock({ specPath: RECEIPTS_SPEC });
    try {
      const summary = await runContract({
        baseUrl: mock.url,
        apiKey: mock.key,
        specPath: RECEIPTS_SPEC,
        seed: 3,
        checks: ['location-resolves'],
      });
      expect(findingTitles(summary)).toEqual([]);
      const result = summary.cases.find(
        (entry) => entry.check === 'location-resolves' && entry.operationId === 'createReceipt',
      );
      expect(result?.status).toBe('passed');
    } finally {
      await mock.close();
    }
  }, 60_000);

  it('kennel serve on the same document passes it: the mock and the checker share one model', async () => {
    const mock = await startTestMock({ specPath: TASKS_SPEC });
    try {
      const summary = await runContract({ baseUrl: mock.url, apiKey: mock.key, specPath: TASKS_SPEC, seed: 3 });
      expect(findingTitles(summary, 'error')).toEqual([]);
      expect(lifecycle(summary).find((result) => result.operationId === 'createTask')?.status).toBe('passed');
    } finally {
      await mock.close();
    }
  }, 60_000);
});
