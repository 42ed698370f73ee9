// A requirement met by mutual TLS alone asks nothing of a request over plain HTTP: kennel check
// does not expect a 401 for a request without credentials there. Found by the generated
// documents (test/generated): auth-enforced called kennel serve's answers to such requests errors.
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { buildPlan } from '../../src/contract/prepare/plan.js';
import { runContract } from '../../src/contract/run/runner.js';
import { startMock } from '../../src/serve/server.js';
import { loadDocument } from '../../src/openapi/load.js';

const SPEC = fileURLToPath(new URL('../fixtures/contract/mutual-tls.yaml', import.meta.url));

describe('mutual TLS', () => {
  it('alone requires no HTTP credentials; beside an API key the key is still required', async () => {
    const plan = buildPlan(await loadDocument(SPEC));
    const requires = Object.fromEntries(plan.operations.map((operation) => [operation.id, operation.requiresAuth]));
    expect(requires).toEqual({ listGauges: false, getSettings: true });
  });

  it('kennel check finds no auth error in kennel serve of it, and still checks the API key', async () => {
    const mock = await startMock({ specPath: SPEC, port: 0, apiKeys: ['k'], world: false });
    try {
      const summary = await runContract({ baseUrl: mock.url, apiKey: 'k', specPath: SPEC, seed: 1 });
      const auth = summary.cases.filter((result) => result.check === 'auth-enforced');
      expect(auth.flatMap((result) => result.failures.map((finding) => finding.title))).toEqual([]);
      expect(auth.map((result) => [result.operationId, result.status])).toEqual([
        ['listGauges', 'skipped'],
        ['getSettings', 'passed'],
      ]);
    } finally {
      await mock.close();
    }
  });
});
