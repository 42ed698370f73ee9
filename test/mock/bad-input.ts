// What a bad request must get from kennel serve (bad-bodies and bad-requests tests): a 4xx Error
// naming the problem, never a 5xx, in the operation's documented shape, and the store unchanged.
import { expect } from 'vitest';
import { expectConforms, expectErrorBody, startTestMock, type TestMock } from '../helpers/mock-client.js';

export const JSON_TYPE = { 'content-type': 'application/json' };

/** One bad request and what it must get: the status, the Error `code`, words its message names. */
export interface BadInput {
  label: string;
  method: string;
  path: string;
  headers?: Record<string, string | null>;
  body?: string;
  status: number;
  code: string;
  words: string[];
}

/** The mock the bad inputs are sent to: ten pets, bodies up to 1 KiB. */
export function startBadInputMock(): Promise<TestMock> {
  return startTestMock({ pets: 10, maxBodyBytes: 1024 });
}

const OPERATIONS: Record<string, string> = { 'POST /pets': 'createPet', 'GET /pets': 'listPets' };

export async function expectRefused(mock: TestMock, input: BadInput): Promise<void> {
  const { method, path, headers = {}, body, status, code, words } = input;
  const before = await mock.request('GET', '/pets?limit=100');
  const exchange = await mock.request(method, path, { headers, body });
  expect(exchange.status, exchange.text).toBe(status);
  expectErrorBody(exchange);
  expect(exchange.body.code).toBe(code);
  for (const word of words) expect(exchange.body.message).toContain(word);
  const operationId = OPERATIONS[`${method} ${path.split('?')[0]}`];
  if (operationId) expectConforms(mock, operationId, exchange);
  if (status === 405) expect(exchange.headers.get('allow')).toMatch(/GET/);
  const after = await mock.request('GET', '/pets?limit=100');
  expect(after.text).toBe(before.text);
}
