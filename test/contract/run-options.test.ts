import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PETSTORE_SPEC } from '../../src/assets.js';
import { runContract } from '../../src/contract/runner.js';
import { startMock, type RunningMock } from '../../src/mock/server.js';

let mock: RunningMock;
beforeAll(async () => {
  mock = await startMock({ apiKeys: ['options-key'], journalSize: 2000 });
});
afterAll(() => mock.close());

async function journalMethods(): Promise<string[]> {
  const response = await fetch(`${mock.origin}/__kennel/journal`);
  const { entries } = (await response.json()) as { entries: { method: string; url: string }[] };
  return entries.filter((entry) => !entry.url.startsWith('/__kennel')).map((entry) => entry.method);
}

describe('run options', () => {
  it('--read-only sends no request that could change state', async () => {
    await fetch(`${mock.origin}/__kennel/journal`, { method: 'DELETE' });
    const summary = await runContract({
      baseUrl: mock.url,
      apiKey: 'options-key',
      specPath: PETSTORE_SPEC,
      seed: 2,
      readOnly: true,
    });
    expect(summary.exitCode).toBe(0);
    expect(new Set(await journalMethods())).toEqual(new Set(['GET']));
    const skipped = summary.cases
      .filter((result) => result.operationId === 'createPet' && result.status === 'skipped')
      .map((result) => result.check);
    expect(skipped).toEqual(
      expect.arrayContaining(['auth-enforced', 'resource-round-trip', 'id-uniqueness', 'negative-data-rejection']),
    );
  });

  it('--operation and --tag choose the operations', async () => {
    const byId = await runContract({
      baseUrl: mock.url,
      apiKey: 'options-key',
      specPath: PETSTORE_SPEC,
      seed: 2,
      operations: ['getPet', 'GET /store/orders'],
    });
    expect(new Set(byId.cases.map((result) => result.operationId))).toEqual(new Set(['getPet', 'listStoreOrders']));
    const byTag = await runContract({
      baseUrl: mock.url,
      apiKey: 'options-key',
      specPath: PETSTORE_SPEC,
      seed: 2,
      tags: ['store'],
    });
    expect(new Set(byTag.cases.map((result) => result.operationId))).toEqual(new Set(['listStoreOrders']));
  });

  it('--exclude-check leaves a check out', async () => {
    const summary = await runContract({
      baseUrl: mock.url,
      apiKey: 'options-key',
      specPath: PETSTORE_SPEC,
      seed: 2,
      excludeChecks: ['limit-honoured', 'status-code-conformance'],
    });
    expect(
      summary.cases.some((result) => result.check === 'limit-honoured' || result.check === 'status-code-conformance'),
    ).toBe(false);
    expect(summary.warnings).toBe(0);
  });

  it('created resources carry the run id in their names', async () => {
    const summary = await runContract({
      baseUrl: mock.url,
      apiKey: 'options-key',
      specPath: PETSTORE_SPEC,
      seed: 4,
      checks: ['resource-round-trip'],
    });
    const pets = (await (
      await fetch(`${mock.url}/pets?limit=5`, { headers: { authorization: 'Bearer options-key' } })
    ).json()) as { name: string }[];
    expect(pets[0]!.name.startsWith(`kennel-${summary.runId}-`)).toBe(true);
  });

  it('--header reaches the deployment on every request', async () => {
    const seen = new Set<string | undefined>();
    const server = createServer((request, response) => {
      seen.add(request.headers['x-tenant'] as string | undefined);
      response.writeHead(401, { 'content-type': 'application/json' }).end('{"code":"x","message":"y","status":401}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      await runContract({
        baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
        apiKey: 'k',
        specPath: PETSTORE_SPEC,
        seed: 1,
        headers: { 'X-Tenant': 'blue' },
        checks: ['auth-enforced'],
      });
      expect(seen).toEqual(new Set(['blue']));
    } finally {
      server.close();
    }
  });
});
