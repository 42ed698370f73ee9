// A required readOnly id in a create's body (an allOf base shared with responses) is the server's:
// `required` beside readOnly holds for responses only. Found by the generated documents
// (test/generated): kennel serve stored the id a create sent and answered the next one 409.
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runContract } from '../../src/contract/run/runner.js';
import { startMock } from '../../src/serve/server.js';
import { loadDocument } from '../../src/openapi/load.js';
import { inferResources } from '../../src/openapi/resource-model.js';

const SPEC = fileURLToPath(new URL('../fixtures/resources/read-only-required-key.yaml', import.meta.url));

describe('a required readOnly key', () => {
  it('is assigned by the server', async () => {
    const model = inferResources(await loadDocument(SPEC));
    const categories = model.resources.find((resource) => resource.path === '/categories')!;
    expect(categories.key).toEqual({ property: 'id', kind: 'integer', assignedBy: 'server' });
  });

  it('kennel serve ignores the id a create sends: two creates with one id make two items', async () => {
    const mock = await startMock({ specPath: SPEC, port: 0, world: false });
    try {
      const create = () =>
        fetch(`${mock.url}/categories`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ id: 77, name: 'tools' }),
        });
      const [first, second] = [await create(), await create()];
      expect([first.status, second.status]).toEqual([201, 201]);
      const ids = [((await first.json()) as { id: number }).id, ((await second.json()) as { id: number }).id];
      expect(new Set(ids).size).toBe(2);
      expect((await fetch(`${mock.url}/categories/${ids[1]}`)).status).toBe(200);
    } finally {
      await mock.close();
    }
  });

  it('kennel check does not expect the id a create sent back when the server assigns it', async () => {
    const mock = await startMock({ specPath: SPEC, port: 0, apiKeys: ['k'], world: false });
    try {
      const checks = ['resource-round-trip'];
      const summary = await runContract({ baseUrl: mock.url, apiKey: 'k', specPath: SPEC, seed: 1, checks });
      const result = summary.cases.find(
        (found) => found.check === 'resource-round-trip' && found.status !== 'skipped',
      )!;
      expect(result.failures.map((finding) => finding.title)).toEqual([]);
      expect(result.status).toBe('passed');
    } finally {
      await mock.close();
    }
  });
});
