// The mocks chaos tests run against, closed after each test, and two ways to meet their faults:
// a raw GET (socket errors keep their code) and the journal.
import { request as httpRequest } from 'node:http';
import { afterEach } from 'vitest';
import type { ChaosSettings } from '../../src/mock/chaos/chaos-types.js';
import { startTestMock, TEST_KEY, type TestMock } from '../helpers/mock-client.js';

/** Starts mocks with a chaos table for the calling file, each closed after its test. */
export function chaosMocks(): (
  chaos: ChaosSettings,
  options?: Parameters<typeof startTestMock>[0],
) => Promise<TestMock> {
  const mocks: TestMock[] = [];
  afterEach(async () => {
    await Promise.all(mocks.splice(0).map((mock) => mock.close()));
  });
  return async (chaos, options = {}) => {
    const mock = await startTestMock({ chaos, ...options });
    mocks.push(mock);
    return mock;
  };
}

/** A GET through node:http, so socket errors arrive with their code (fetch wraps them). */
export function rawGet(
  url: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: string } | { error: string }> {
  return new Promise((resolve) => {
    const request = httpRequest(url, { headers: { authorization: `Bearer ${TEST_KEY}`, ...headers } }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (body += chunk));
      response.on('end', () => resolve({ status: response.statusCode!, body }));
      response.on('error', (error: NodeJS.ErrnoException) => resolve({ error: error.code ?? error.message }));
    });
    request.on('error', (error: NodeJS.ErrnoException) => resolve({ error: error.code ?? error.message }));
    request.end();
  });
}

export async function journalOf(mock: TestMock): Promise<any[]> {
  return (await mock.request('GET', '/__kennel/journal')).body.entries;
}
