import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runContract } from '../../src/contract/runner.js';
import { startMock } from '../../src/mock/server.js';

describe('unknown-id-conformance holds a deployment to what the document promises', () => {
  it('without a documented 404, a 200 for an unlikely id is not an error (a warning when it shows another id)', async () => {
    const document = fileURLToPath(new URL('../fixtures/things-no-404.yaml', import.meta.url));
    const mock = await startMock({ specPath: document, apiKeys: ['things-key'], world: false });
    try {
      const summary = await runContract({
        baseUrl: mock.url,
        apiKey: 'things-key',
        specPath: document,
        seed: 3,
        checks: ['unknown-id-conformance'],
      });
      const findings = summary.cases
        .filter((result) => result.check === 'unknown-id-conformance' && result.operationId === 'getThing')
        .flatMap((result) => result.failures);
      expect(findings.map((finding) => finding.severity)).toEqual(['warning']);
      expect(findings[0]!.title).toMatch(/answered 200 with another resource/);
      expect(summary.exitCode).toBe(0);
    } finally {
      await mock.close();
    }
  });
});
