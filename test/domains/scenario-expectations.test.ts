import { describe, expect, it } from 'vitest';
import { runScenario } from '../../src/domains/scenario/scenario.js';
import { loadWorld, scenarioFromText } from '../../src/domains/scenario/scenario-file.js';

// The expectations QA needed (issue 22): TTLs, the cause of a TLS failure, and either of two readings.
// Each must fail when what it says does not hold.
const world = await loadWorld();

async function run(steps: string) {
  const text = `description: expectations
given:
  zones:
    - apex: example.com
      provider: laxdns
      records:
        - { name: docs.example.com, type: CNAME, value: petstore-docs.kennel-pages.dev, ttl: 3600 }
steps:
${steps}`;
  const result = runScenario(await scenarioFromText(text, 'inline.yaml', 'inline'), world);
  return { passed: result.passed, failures: result.steps.flatMap((step) => step.failures) };
}

describe('scenario expectations', () => {
  it('anyOf fails when no reading holds, naming each', async () => {
    const { passed, failures } = await run(`  - check: docs.example.com
    expect:
      anyOf:
        - domain: { attached: true }
        - domain: { certificate: issued }
`);
    expect(passed).toBe(false);
    expect(failures.join('\n')).toMatch(
      /anyOf: no reading held: \(1\) domain attached: .*\| \(2\) domain: not attached/,
    );
  });

  it('withTtl fails on a TTL that differs, where answers would pass', async () => {
    const { passed, failures } = await run(`  - dig: { name: docs.example.com, type: CNAME }
    expect:
      dns:
        answers: [docs.example.com CNAME petstore-docs.kennel-pages.dev]
        withTtl: [docs.example.com 300 CNAME petstore-docs.kennel-pages.dev]
`);
    expect(passed).toBe(false);
    expect(failures.join('\n')).toMatch(/answers with TTL: expected .*300.*, got .*3600/);
  });

  it('cause fails when https fails for another reason', async () => {
    const { passed, failures } = await run(`  - serve: https://docs.example.com/
    expect:
      served: { tls: no_certificate, cause: certificate_pending }
`);
    expect(passed).toBe(false);
    expect(failures.join('\n')).toMatch(/tls failure cause: expected "certificate_pending", got "unknown_domain"/);
  });
});
