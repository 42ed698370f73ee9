import { createServer } from 'node:http';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runContract } from '../../src/contract/run/runner.js';
import { listenOnLoopback } from '../helpers/loopback.js';

/** A Things server that answers every read with the same thing, whatever the id: what the document allows. */
async function startSameThingServer() {
  const thing = JSON.stringify({ id: 'example', label: 'An example' });
  const server = createServer((request, response) => {
    const body = request.url?.startsWith('/api/things/') ? thing : `[${thing}]`;
    response.writeHead(200, { 'content-type': 'application/json' }).end(body);
  });
  return listenOnLoopback(server);
}

describe('unknown-id-conformance holds a deployment to what the document promises', () => {
  it('without a documented 404, a 200 for an unlikely id is not an error (a warning when it shows another id)', async () => {
    const document = fileURLToPath(new URL('../fixtures/things-no-404.yaml', import.meta.url));
    const server = await startSameThingServer();
    try {
      const summary = await runContract({
        baseUrl: `${server.url}/api`,
        apiKey: '',
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
      await server.close();
    }
  });
});
