import { ValuePool } from '../../src/contract/prepare/value-pool.js';
// What the checker remembers of the items it created stays true to its own later writes, and is
// scoped to the collection (a sub-resource's parent) it was created in. Found by the generated
// documents of test/generated: filter-honoured expected a PATCHed item under its old status, and
// id-uniqueness called pet 1 of one owner a duplicate of pet 1 of another.
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { followWrites } from '../../src/contract/checks/created-writes.js';
import { idUniqueness } from '../../src/contract/checks/id-uniqueness.js';
import { HttpClient } from '../../src/contract/transport/http-client.js';
import { buildPlan, type CheckPlan } from '../../src/contract/prepare/plan.js';
import { Run } from '../../src/contract/run/run.js';
import { runContract } from '../../src/contract/run/runner.js';
import type { CreatedResource, Exchange, RunState } from '../../src/contract/types.js';
import { startMock, type RunningMock } from '../../src/serve/server.js';
import { loadDocument } from '../../src/openapi/load.js';

const KEY = 'own-writes-key';
const PATCHED = fileURLToPath(new URL('../fixtures/contract/patched-status.yaml', import.meta.url));
const PETS = fileURLToPath(new URL('../fixtures/contract/pets-per-owner.yaml', import.meta.url));
const SETTINGS = { apiKey: KEY, readOnly: false, maxExamples: 10, concurrency: 2, runId: 'r', namePrefix: 'kennel-r' };

describe('a created item the run changes is expected as it is now', () => {
  it('filter-honoured finds a PATCHed ticket under its new status against kennel serve', async () => {
    const mock = await startMock({ specPath: PATCHED, port: 0, apiKeys: [KEY], world: false });
    try {
      const summary = await runContract({
        baseUrl: mock.url,
        apiKey: KEY,
        specPath: PATCHED,
        seed: 1,
        checks: ['positive-data-acceptance', 'filter-honoured'],
      });
      const filter = summary.cases.find((result) => result.check === 'filter-honoured')!;
      expect(filter.failures.map((finding) => finding.title)).toEqual([]);
      expect(filter.status).toBe('passed');
    } finally {
      await mock.close();
    }
  });

  it('and through an item wrapper (`{"ticket": {...}}`) in a PATCH answered 204', async () => {
    const wrapped = fileURLToPath(new URL('../fixtures/contract/patched-status-wrapped.yaml', import.meta.url));
    const mock = await startMock({ specPath: wrapped, port: 0, apiKeys: [KEY], world: false });
    try {
      const summary = await runContract({
        baseUrl: mock.url,
        apiKey: KEY,
        specPath: wrapped,
        seed: 1,
        checks: ['positive-data-acceptance', 'filter-honoured'],
      });
      const filter = summary.cases.find((result) => result.check === 'filter-honoured')!;
      expect(filter.failures.map((finding) => finding.title)).toEqual([]);
      expect(filter.status).toBe('passed');
    } finally {
      await mock.close();
    }
  });

  const plan = async (): Promise<CheckPlan> => buildPlan(await loadDocument(PATCHED));
  const item = (id: number, status: string): CreatedResource => ({
    sent: { title: 't', status },
    returned: { id, title: 't', status },
    id,
    scope: '/v1/tickets',
  });
  const exchange = (operation: CheckPlan['all'][number], url: string, status: number, body?: object): Exchange => ({
    operation,
    intent: 'valid',
    purpose: 'test',
    request: { method: operation.operation.method.toUpperCase(), url, headers: {}, body: JSON.stringify(body ?? {}) },
    response: { status, headers: {}, text: '', json: body ? { ok: true, value: body } : undefined },
    durationMs: 1,
  });
  const state = (...items: CreatedResource[]): RunState => ({
    created: new Map([['/tickets', items]]),
    pool: new ValuePool(),
    workingQueries: new Map(),
    issuedIds: new Map(),
  });

  it.each([
    ['a 200 with the item', 200, { id: 2, title: 't', status: 'closed' }, 'closed'],
    ['a 204 (the body as written)', 204, undefined, 'closed'],
    ['a refusal (nothing changes)', 400, undefined, 'open'],
  ])('a PATCH answered with %s', async (_label, status, answer, expected) => {
    const { all } = await plan();
    const patch = all.find((operation) => operation.role === 'update')!;
    const run = state(item(1, 'open'), item(2, 'open'));
    const sent = exchange(patch, 'http://h/v1/tickets/2', status, answer);
    sent.request.body = JSON.stringify({ status: 'closed' });
    followWrites(run, sent);
    expect(run.created.get('/tickets')!.map((resource) => resource.returned.status)).toEqual(['open', expected]);
  });

  it('a PUT answered 204 holds what it wrote: a field it left out is no longer expected', async () => {
    const { all } = await plan();
    const replacing = { ...all.find((operation) => operation.role === 'update')!, role: 'replace' as const };
    const run = state(item(1, 'open'));
    const sent = exchange(replacing, 'http://h/v1/tickets/1', 204);
    sent.request.body = JSON.stringify({ title: 'new' });
    followWrites(run, sent);
    expect(run.created.get('/tickets')![0]!.returned).toEqual({ id: 1, title: 'new' });
  });

  it('a DELETE forgets the item; one under another collection path is left alone', async () => {
    const { all } = await plan();
    const deleting = { ...all.find((operation) => operation.role === 'update')!, role: 'delete' as const };
    const run = state(item(1, 'open'), { ...item(2, 'open'), scope: '/v1/archive/tickets' });
    followWrites(run, exchange(deleting, 'http://h/v1/tickets/1', 204));
    followWrites(run, exchange(deleting, 'http://h/v1/tickets/2', 204));
    expect(run.created.get('/tickets')!.map((resource) => resource.id)).toEqual([2]);
  });

  it('a create under the item makes another item, even one whose id is the same number', async () => {
    const { all } = await plan();
    const creating = { ...all.find((operation) => operation.role === 'update')!, role: 'create' as const };
    const run = state(item(4, 'open'));
    const comment = { id: 4, title: 'a comment', status: 'archived' };
    followWrites(run, exchange(creating, 'http://h/v1/tickets/4/comments', 201, comment));
    expect(run.created.get('/tickets')![0]!).toEqual(item(4, 'open'));
  });
});

describe('id-uniqueness compares ids within one collection', () => {
  let mock: RunningMock;
  beforeAll(async () => {
    mock = await startMock({ specPath: PETS, port: 0, apiKeys: [KEY], world: false });
  });
  afterAll(() => mock.close());

  /** Runs id-uniqueness on createPet (owner `ada`) with `earlier` remembered from before. */
  async function idUniquenessAfter(earlier: CreatedResource) {
    await mock.reset();
    const stopper = new AbortController();
    const client = new HttpClient({
      baseUrl: mock.url,
      apiKey: KEY,
      headers: {},
      timeoutMs: 5000,
      concurrency: 2,
      rateLimit: 0,
      maxRetries: 0,
      maxRetryAfterMs: 0,
      signal: stopper.signal,
    });
    const plan = buildPlan(await loadDocument(PETS));
    const settings = { ...SETTINGS, baseUrl: mock.url };
    const run = new Run(plan, client, settings, 1, [], [], { strict: false, maxFailures: 0 }, stopper);
    run.state.created.set('/owners/{ownerId}/pets', [earlier]);
    await run.scenario(idUniqueness, true);
    const result = run.cases.find((candidate) => candidate.operationId === 'createPet')!;
    expect(result.error).toBeUndefined();
    // The concurrent creates went to ada's pets (her path parameter is not a pet's id) and made pets.
    expect(run.state.created.get('/owners/{ownerId}/pets')!.map((resource) => resource.scope)).toEqual(
      Array.from({ length: 11 }, (_, index) => (index === 0 ? earlier.scope : '/owners/ada/pets')),
    );
    return result;
  }
  const pet = (scope: string): CreatedResource => ({
    sent: { name: 'a' },
    returned: { id: 1, name: 'a' },
    id: 1,
    scope,
  });

  it('pet 1 of another owner is another resource', async () => {
    const result = await idUniquenessAfter(pet('/owners/bob/pets'));
    expect(result.failures).toEqual([]);
    expect(result.status).toBe('passed');
  });

  it('pet 1 given again under the same owner is still a duplicate', async () => {
    const result = await idUniquenessAfter(pet('/owners/ada/pets'));
    expect(result.failures.map((finding) => finding.title)).toEqual(['id 1 was given to more than one resource']);
  });
});

describe('a sub-resource is created, read and listed under one parent', () => {
  const NOTES = fileURLToPath(new URL('../fixtures/contract/notes-per-owner.yaml', import.meta.url));
  const CHECKS = ['collection-consistency', 'data-fidelity', 'resource-round-trip', 'list-freshness'];

  it.each(CHECKS)('%s finds nothing against kennel serve, having read notes back', async (check) => {
    const mock = await startMock({ specPath: NOTES, port: 0, apiKeys: [KEY], world: false });
    try {
      // positive-data-acceptance creates the owners the notes are then created under.
      const checks = ['positive-data-acceptance', check];
      const summary = await runContract({ baseUrl: mock.url, apiKey: KEY, specPath: NOTES, seed: 1, checks });
      const result = summary.cases.filter((found) => found.check === check && found.status !== 'skipped');
      expect(result.flatMap((found) => found.failures.map((failure) => failure.title))).toEqual([]);
      expect(result.map((found) => found.status)).toContain('passed');
    } finally {
      await mock.close();
    }
  });
});
