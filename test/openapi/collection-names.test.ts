// A key named after one item of its collection is found by the collection's English singular:
// `/people` holds `personId`, `/categories` holds `categoryId`. Found by the generated documents
// (test/generated): kennel serve kept no state for /people, while kennel check expected it.
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runContract } from '../../src/contract/run/runner.js';
import { startMock } from '../../src/serve/server.js';
import { loadDocument } from '../../src/openapi/load.js';
import { inferResources } from '../../src/openapi/resource-model.js';

const SPEC = fileURLToPath(new URL('../fixtures/resources/irregular-plurals.yaml', import.meta.url));

describe('a key named after one item of an irregular plural', () => {
  it.each([
    ['/people', 'personId'],
    ['/categories', 'categoryId'],
  ])('%s is keyed by %s and kept by kennel serve', async (path, property) => {
    const model = inferResources(await loadDocument(SPEC));
    const resource = model.resources.find((candidate) => candidate.path === path)!;
    expect(resource.key).toEqual({ property, kind: 'integer', assignedBy: 'server' });
    expect(resource.stateful).toBe(true);
  });

  it('kennel check finds nothing in kennel serve of it', async () => {
    const mock = await startMock({ specPath: SPEC, port: 0, apiKeys: ['k'], world: false });
    try {
      const summary = await runContract({ baseUrl: mock.url, apiKey: 'k', specPath: SPEC, seed: 1 });
      const errors = summary.cases.flatMap((result) =>
        result.failures
          .filter((finding) => finding.severity === 'error')
          .map((finding) => `${result.check}: ${finding.title}`),
      );
      expect(errors).toEqual([]);
      expect(summary.exitCode).toBe(0);
      const created = await fetch(`${mock.url}/people`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'Ada' }),
      });
      const { personId } = (await created.json()) as { personId: number };
      expect((await fetch(`${mock.url}/people/${personId}`)).status).toBe(200);
      expect((await fetch(`${mock.url}/people/${personId + 1000}`)).status).toBe(404);
    } finally {
      await mock.close();
    }
  });
});
