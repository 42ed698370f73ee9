import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PETSTORE_SPEC } from '../../src/assets.js';
import { SCENARIO_CHECKS } from '../../src/contract/checks/registry.js';
import { runContract, type RunListener, type RunSummary } from '../../src/contract/run/runner.js';
import type { ResponseCheck, ScenarioCheck } from '../../src/contract/types.js';
import { ToolError } from '../../src/core/tool-error.js';
import { startMock, type RunningMock } from '../../src/serve/server.js';
import { freePort } from '../helpers/cli.js';
import { neverEndingServer } from './hostile-servers.js';
import { startReferencePetstore } from './reference-petstore.js';
import { holdsThroughout, waitUntil } from '../helpers/wait.js';

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
    // Discovery reads listPets (unselected, unjudged) for getPet's ids; id-permanence on getPet then creates
    // through createPet, whose answers are judged like every read-back of a selected operation's check.
    expect(new Set(byId.cases.map((result) => result.operationId))).toEqual(
      new Set(['getPet', 'listStoreOrders', 'createPet']),
    );
    const scenarioChecks = new Set(SCENARIO_CHECKS.map((check) => check.name));
    const subjects = byId.cases
      .filter((result) => scenarioChecks.has(result.check))
      .map((result) => result.operationId);
    expect(new Set(subjects)).toEqual(new Set(['getPet', 'listStoreOrders']));
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
      // Every answer is a 401: the preflight stops the run there, after sending the header too.
      await expect(
        runContract({
          baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
          apiKey: 'k',
          specPath: PETSTORE_SPEC,
          seed: 1,
          headers: { 'X-Tenant': 'blue' },
          checks: ['auth-enforced'],
        }),
      ).rejects.toThrow(/every request with the key got 401/);
      expect(seen).toEqual(new Set(['blue']));
    } finally {
      server.close();
    }
  });
});

/** A listener that keeps the summary its runEnd got. */
function ending(): RunListener & { summary?: RunSummary } {
  const listener: RunListener & { summary?: RunSummary } = {
    runEnd(summary) {
      listener.summary = summary;
    },
  };
  return listener;
}

describe('runContract from code', () => {
  it('runs with the CLI defaults: the bundled spec and a random seed', async () => {
    const summary = await runContract({ baseUrl: mock.url, apiKey: 'options-key', checks: ['auth-enforced'] });
    expect(summary.specFile).toBe(PETSTORE_SPEC);
    expect(Number.isInteger(summary.seed)).toBe(true);
    expect(summary.seed).toBeGreaterThanOrEqual(0);
    expect(summary.exitCode).toBe(0);
  });
});

describe('stopping early', () => {
  it('--max-failures 1 (-x) stops at the first failing finding; what did not run is reported as not run', async () => {
    const broken = await startReferencePetstore({ fault: 'any-token' });
    try {
      const full = await runContract({ baseUrl: broken.url, apiKey: broken.apiKey, seed: 3 });
      const listener = ending();
      const first = await runContract({ baseUrl: broken.url, apiKey: broken.apiKey, seed: 3, maxFailures: 1 }, [
        listener,
      ]);
      expect(full.errors).toBeGreaterThan(1);
      expect(first.stopped).toBe('stopped at the first failure (--exitfirst)');
      expect(first.exitCode).toBe(1);
      expect(first.errors).toBeGreaterThanOrEqual(1);
      expect(first.errors).toBeLessThan(full.errors);
      expect(first.requests).toBeLessThan(full.requests);
      expect(
        first.cases.some((result) => result.skipReason === 'not run: stopped at the first failure (--exitfirst)'),
      ).toBe(true);
      expect(listener.summary).toBe(first);
    } finally {
      await broken.close();
    }
  });

  it('an aborted signal stops the run at once; runEnd still gets the summary, exit code 2', async () => {
    const slow = await neverEndingServer();
    try {
      const controller = new AbortController();
      const listener = ending();
      const run = runContract(
        { baseUrl: slow.url, apiKey: 'k', seed: 1, timeoutMs: 600_000, signal: controller.signal },
        [listener],
      );
      // The probe, then the first request of the run, which never ends: abort while it hangs.
      await waitUntil(
        () => slow.requests.length >= 2,
        () => 'the probe and the first request',
      );
      controller.abort('SIGTERM');
      const summary = await run;
      expect(summary).toMatchObject({ stopped: 'interrupted by SIGTERM', exitCode: 2 });
      expect(listener.summary).toBe(summary);
      expect(slow.requests).toHaveLength(2);
    } finally {
      await slow.close();
    }
  });
});

describe('a crash in one check never loses the run', () => {
  const crashingScenario: ScenarioCheck = {
    name: 'crashing-scenario',
    kind: 'scenario',
    severity: 'error',
    description: 'throws on getPet',
    skipReason: (operation) => (operation.successStatuses.length === 0 ? 'no documented success' : undefined),
    async run(context) {
      if (context.operation.id === 'getPet') throw new TypeError('cannot read properties of undefined');
      await context.send({ operation: context.operation, intent: 'valid', purpose: 'a valid request' });
      return { failures: [] };
    },
  };
  const crashingResponse: ResponseCheck = {
    name: 'crashing-response',
    kind: 'response',
    severity: 'error',
    description: 'throws on every 401',
    inspect(_plan, exchange) {
      if (exchange.response?.status === 401) throw new RangeError('a 401');
      return [];
    },
  };

  it('becomes an errored case naming the check; the other checks go on; exit 2 when nothing else was found', async () => {
    const listener = ending();
    const summary = await runContract(
      { baseUrl: mock.url, apiKey: 'options-key', seed: 2, extraChecks: [crashingScenario, crashingResponse] },
      [listener],
    );
    const errored = summary.cases.filter((result) => result.status === 'errored');
    expect(errored.map((result) => `${result.operationId} ${result.check}`).sort()).toEqual([
      'createPet crashing-response',
      'getPet crashing-response',
      'getPet crashing-scenario',
      'listPets crashing-response',
      'listStoreOrders crashing-response',
    ]);
    expect(errored.find((result) => result.check === 'crashing-scenario')!.error).toMatch(
      /^TypeError: cannot read properties of undefined \(at .*run-options\.test\.ts:\d+:\d+\)$/,
    );
    expect(
      summary.cases.find((result) => result.operationId === 'listPets' && result.check === 'crashing-scenario')!.status,
    ).toBe('passed');
    // Checks after the crashing one ran: limit-honoured is the last built-in scenario check.
    expect(
      summary.cases.find((result) => result.operationId === 'listPets' && result.check === 'limit-honoured')!.status,
    ).toBe('passed');
    expect(summary).toMatchObject({ errors: 0, errored: 5, exitCode: 2 });
    expect(listener.summary).toBe(summary);
  });

  it('a listener that throws does not keep the others from their report', async () => {
    const listener = ending();
    const throwing: RunListener = {
      caseResult() {
        throw new Error('reporter bug');
      },
    };
    await expect(
      runContract({ baseUrl: mock.url, apiKey: 'options-key', seed: 2, checks: ['auth-enforced'] }, [
        throwing,
        listener,
      ]),
    ).rejects.toThrow('reporter bug');
    expect(listener.summary?.exitCode).toBe(2);
    expect(listener.summary?.stopped).toMatch(/^kennel failed: Error: reporter bug/);
  });
});

describe('reaching the deployment', () => {
  it('--wait-for retries a refused connection until the deployment listens', async () => {
    const port = await freePort();
    const run = runContract({
      baseUrl: `http://127.0.0.1:${port}/v1`,
      apiKey: 'late-key',
      seed: 1,
      checks: ['auth-enforced'],
      waitForMs: 20_000,
    });
    let settled = false;
    void run.finally(() => (settled = true)).catch(() => undefined);
    await holdsThroughout(
      () => !settled,
      300,
      () => 'the run waits while nothing listens on the port',
    );
    const late = await startMock({ apiKeys: ['late-key'], port });
    try {
      expect((await run).exitCode).toBe(0);
    } finally {
      await late.close();
    }
  });

  it('without --wait-for, or once it is over, a refused connection is a tool error', async () => {
    const url = `http://127.0.0.1:${await freePort()}/v1`;
    await expect(runContract({ baseUrl: url, apiKey: 'k' })).rejects.toThrow(
      new ToolError(`cannot reach ${url}: connection refused; starting it just now? use --wait-for SECONDS`),
    );
    await expect(runContract({ baseUrl: url, apiKey: 'k', waitForMs: 300 })).rejects.toThrow(
      /^cannot reach .*: connection refused \(tried \d+ times in 0\.3 s\)$/,
    );
  });

  it('says "did you mean …/v1" before judging when the base URL misses the base path', async () => {
    await expect(runContract({ baseUrl: mock.origin, apiKey: 'options-key', seed: 1 })).rejects.toThrow(
      `did you mean --base-url ${mock.origin}/v1? (the document's servers are under /v1)`,
    );
    const right = await runContract({ baseUrl: mock.url, apiKey: 'options-key', seed: 1, checks: ['auth-enforced'] });
    expect(right.hints).toBeUndefined();
  });
});
