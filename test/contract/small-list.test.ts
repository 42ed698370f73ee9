// limit-honoured on a list nobody can add to (fixtures/contract/small-list.yaml): with one tag,
// no limit can show whether it is honoured, so the check says "not exercised" rather than
// "passed"; with twelve, a deployment that ignores the limit is caught and one that honours it passes.
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { runContract } from '../../src/contract/run/runner.js';
import { startJsonServer } from '../helpers/json-server.js';
import type { LoopbackServer } from '../helpers/loopback.js';

const DOCUMENT = fileURLToPath(new URL('../fixtures/contract/small-list.yaml', import.meta.url));

function tagsServer(count: number, honoursLimit: boolean): Promise<LoopbackServer> {
  const tags = Array.from({ length: count }, (_, index) => ({ name: `tag-${index}` }));
  return startJsonServer(
    (request) => {
      // Out-of-range limits are clamped, as the check allows.
      const limit = Math.max(1, Math.min(Number(request.url.searchParams.get('limit') ?? 10) || 10, 10));
      if (request.url.pathname !== '/tags') return { status: 404, body: { message: 'no route' } };
      return { status: 200, body: honoursLimit ? tags.slice(0, limit) : tags };
    },
    (refusal) => ({ status: refusal.status, body: { message: refusal.message } }),
  );
}

let server: LoopbackServer | undefined;
afterEach(() => server?.close());

async function limitCase(count: number, honoursLimit: boolean) {
  server = await tagsServer(count, honoursLimit);
  const summary = await runContract({
    baseUrl: server.url,
    apiKey: 'k',
    specPath: DOCUMENT,
    seed: 1,
    checks: ['limit-honoured'],
  });
  const result = summary.cases.find((found) => found.check === 'limit-honoured')!;
  return { status: result.status, errors: result.failures.filter((found) => found.severity === 'error').length };
}

describe('limit-honoured on a list that cannot be filled', () => {
  it('is not exercised by a list of one item, whatever the limit does', async () => {
    expect(await limitCase(1, true)).toEqual({ status: 'unexercised', errors: 0 });
    await server?.close();
    expect(await limitCase(1, false)).toEqual({ status: 'unexercised', errors: 0 });
  });

  it('passes a limit honoured over twelve items and catches one ignored', async () => {
    expect(await limitCase(12, true)).toEqual({ status: 'passed', errors: 0 });
    await server?.close();
    expect((await limitCase(12, false)).status).toBe('failed');
  });
});
