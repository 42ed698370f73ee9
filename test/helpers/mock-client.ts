import { expect } from 'vitest';
import { startMock, type MockServerOptions, type RunningMock } from '../../src/serve/server.js';
import { valueAt } from '../../src/openapi/json-pointer.js';
import { jsonMediaType, responseFor } from '../../src/openapi/operations.js';
import { SchemaValidators } from '../../src/openapi/validators.js';
import { exactNumbers, parseJson } from '../../src/core/json.js';

export interface Exchange {
  status: number;
  headers: Headers;
  text: string;
  /** Parsed body (unsafe integers as bigint), undefined when empty. */
  body: any;
}

export interface TestMock {
  running: RunningMock;
  url: string;
  key: string;
  /** A request with the test key unless `headers.authorization` says otherwise (null removes it). */
  request(
    method: string,
    path: string,
    options?: { headers?: Record<string, string | null>; body?: string | object },
  ): Promise<Exchange>;
  close(): Promise<void>;
}

export const TEST_KEY = 'test-key-1';
export const OTHER_KEY = 'test-key-2';

/** Starts a real mock on a free loopback port with two known keys. */
export async function startTestMock(options: MockServerOptions = {}): Promise<TestMock> {
  const running = await startMock({ apiKeys: [TEST_KEY, OTHER_KEY], ...options });
  const key = running.apiKeys[0]!;
  return {
    running,
    url: running.url,
    key,
    async request(method, path, { headers = {}, body } = {}) {
      const merged: Record<string, string> = { authorization: `Bearer ${key}` };
      if (body !== undefined) merged['content-type'] = 'application/json';
      for (const [name, value] of Object.entries(headers)) {
        if (value === null) delete merged[name.toLowerCase()];
        else merged[name.toLowerCase()] = value;
      }
      const target = path.startsWith('/__kennel') ? running.origin + path : running.url + path;
      const response = await fetch(target, {
        method,
        headers: merged,
        body: typeof body === 'object' ? JSON.stringify(body) : body,
      });
      const text = await response.text();
      const parsed = text === '' ? undefined : parseJson(text);
      return { status: response.status, headers: response.headers, text, body: parsed?.ok ? parsed.value : undefined };
    },
    close: () => running.close(),
  };
}

/** Statuses kennel sends on purpose although the operation does not document them (docs/decisions.md). */
const DECIDED_UNDOCUMENTED: Record<string, number[]> = {
  listPets: [400],
  getPet: [],
  createPet: [507],
  listStoreOrders: [501],
};

/**
 * Asserts that an exchange conforms to the spec: a documented status (or a decided one, which
 * must then carry an Error body) and a JSON body valid against the documented schema.
 */
export function expectConforms(mock: TestMock, operationId: string, exchange: Exchange): void {
  const { spec } = mock.running;
  const operation = spec.operations.find((candidate) => candidate.operationId === operationId);
  expect(operation, `operation ${operationId}`).toBeDefined();
  const response = responseFor(operation!, exchange.status);
  const media = response && jsonMediaType(response.content);
  if (!response) {
    expect(
      DECIDED_UNDOCUMENTED[operationId] ?? [],
      `undocumented status ${exchange.status} for ${operationId}: ${exchange.text}`,
    ).toContain(exchange.status);
    expectErrorBody(exchange);
    return;
  }
  if (!media?.schema) return;
  expect(exchange.headers.get('content-type')).toMatch(/^application\/json/);
  const validators = validatorsFor(spec.document);
  const issues = validators.at(media.schema.pointer)(exactNumbers(exchange.body));
  expect(issues, `${operationId} ${exchange.status} body ${exchange.text}`).toEqual([]);
  if (exchange.status >= 400) expectErrorBody(exchange);
}

/** The spec's Error shape with `status` equal to the HTTP status. */
export function expectErrorBody(exchange: Exchange): void {
  expect(exchange.headers.get('content-type')).toMatch(/^application\/json/);
  expect(exchange.body).toEqual({ code: expect.any(String), message: expect.any(String), status: exchange.status });
  expect(Object.keys(exchange.body)).toEqual(['code', 'message', 'status']);
}

const cache = new WeakMap<object, SchemaValidators>();
function validatorsFor(document: object): SchemaValidators {
  let validators = cache.get(document);
  if (!validators) {
    validators = new SchemaValidators(document as never);
    cache.set(document, validators);
  }
  return validators;
}

export { valueAt };
