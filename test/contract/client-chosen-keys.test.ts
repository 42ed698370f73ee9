// A key the client chooses (a slug) must be fresh in every create a check sends at once: found by
// the generated documents of test/generated, where data-fidelity's probes all carried one slug its
// pattern kept from being tricky text, and kennel serve rightly answered 409 to all but the first.
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runContract } from '../../src/contract/run/runner.js';
import { startMock } from '../../src/serve/server.js';

const KEY = 'slug-key';
const SLUGS = fileURLToPath(new URL('../fixtures/contract/slug-pattern.yaml', import.meta.url));

describe('data-fidelity with a client-chosen key its tricky texts cannot fill', () => {
  it('gives each probe a slug of its own: kennel serve stores every one', async () => {
    const mock = await startMock({ specPath: SLUGS, port: 0, apiKeys: [KEY], world: false });
    try {
      const summary = await runContract({
        baseUrl: mock.url,
        apiKey: KEY,
        specPath: SLUGS,
        seed: 2,
        checks: ['data-fidelity'],
      });
      const fidelity = summary.cases.find(
        (result) => result.check === 'data-fidelity' && result.operationId === 'createDevice',
      )!;
      expect(fidelity.failures.map((finding) => finding.title)).toEqual([]);
      expect(fidelity.status).toBe('passed');
      const slugs = (await (await fetch(`${mock.url}/devices?limit=100`)).json()) as { slug: string }[];
      expect(slugs.length).toBeGreaterThan(10); // 3 seeded, and the probes (Greek, CJK, emoji, …) stored
    } finally {
      await mock.close();
    }
  });
});
