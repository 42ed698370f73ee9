import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseDocument } from 'yaml';
import { PETSTORE_SPEC } from '../../src/assets.js';
import { runContract } from '../../src/contract/run/runner.js';
import { startTestMock, type TestMock } from '../helpers/mock-client.js';

/**
 * The day the interface specification shows the store orders: spec/petstore.yaml as shipped, with
 * `/store/orders` fully specified (list, place, read one). kennel follows the document, no code change.
 */
const ORDERS = {
  get: {
    operationId: 'listStoreOrders',
    tags: ['store'],
    security: [{ bearerAuth: [] }],
    parameters: [{ name: 'limit', in: 'query', schema: { type: 'integer', minimum: 1, maximum: 50, default: 10 } }],
    responses: {
      '200': {
        description: 'Orders',
        content: { 'application/json': { schema: { type: 'array', items: ref('Order') } } },
      },
      '401': { $ref: '#/components/responses/Unauthorized' },
    },
  },
  post: {
    operationId: 'placeOrder',
    tags: ['store'],
    security: [{ bearerAuth: [] }],
    requestBody: { required: true, content: { 'application/json': { schema: ref('NewOrder') } } },
    responses: {
      '201': { description: 'Placed', content: { 'application/json': { schema: ref('Order') } } },
      '400': { description: 'Invalid', content: { 'application/json': { schema: ref('Error') } } },
      '401': { $ref: '#/components/responses/Unauthorized' },
    },
  },
};
const ORDER = {
  get: {
    operationId: 'getOrder',
    tags: ['store'],
    security: [{ bearerAuth: [] }],
    parameters: [{ name: 'orderId', in: 'path', required: true, schema: { type: 'integer', format: 'int64' } }],
    responses: {
      '200': { description: 'The order', content: { 'application/json': { schema: ref('Order') } } },
      '401': { $ref: '#/components/responses/Unauthorized' },
      '404': { description: 'No such order', content: { 'application/json': { schema: ref('Error') } } },
    },
  },
};
const NEW_ORDER = {
  type: 'object',
  additionalProperties: false,
  required: ['petId', 'quantity'],
  properties: {
    petId: { type: 'integer', format: 'int64', minimum: 1 },
    quantity: { type: 'integer', minimum: 1, maximum: 10 },
  },
};
const ORDER_SCHEMA = {
  type: 'object',
  required: ['id', 'petId', 'quantity'],
  properties: { id: { type: 'integer', format: 'int64' }, ...NEW_ORDER.properties },
};

function ref(name: string): { $ref: string } {
  return { $ref: `#/components/schemas/${name}` };
}

let directory: string;
let mock: TestMock;

beforeAll(async () => {
  const document = parseDocument(await readFile(PETSTORE_SPEC, 'utf8'));
  document.setIn(['paths', '/store/orders'], document.createNode(ORDERS));
  document.setIn(['paths', '/store/orders/{orderId}'], document.createNode(ORDER));
  document.setIn(['components', 'schemas', 'NewOrder'], document.createNode(NEW_ORDER));
  document.setIn(['components', 'schemas', 'Order'], document.createNode(ORDER_SCHEMA));
  directory = await mkdtemp(path.join(tmpdir(), 'kennel-grown-'));
  const specPath = path.join(directory, 'petstore.yaml');
  await writeFile(specPath, document.toString());
  mock = await startTestMock({ specPath });
});

afterAll(async () => {
  await mock?.close();
  await rm(directory, { recursive: true, force: true });
});

describe('the Pet Store document grows a specified /store/orders', () => {
  it('places an order, reads it back and lists it, per API key', async () => {
    const placed = await mock.request('POST', '/store/orders', { body: { petId: 3, quantity: 2 } });
    expect(placed.status).toBe(201);
    expect(placed.body).toEqual({ id: expect.any(Number), petId: 3, quantity: 2 });
    const read = await mock.request('GET', `/store/orders/${placed.body.id}`);
    expect(read.status).toBe(200);
    expect(read.body).toEqual(placed.body);
    const listed = await mock.request('GET', '/store/orders?limit=50');
    expect(listed.body).toContainEqual(placed.body);
    const missing = await mock.request('GET', '/store/orders/987654321');
    expect(missing.status).toBe(404);
  });

  it('validates orders from the document (quantity above its maximum is a 400 naming it)', async () => {
    const refused = await mock.request('POST', '/store/orders', { body: { petId: 3, quantity: 11 } });
    expect(refused.status).toBe(400);
    expect(refused.text).toContain('/quantity');
  });

  it('keeps the pets as they were (seeded names, newest first)', async () => {
    const pets = await mock.request('GET', '/pets?limit=2');
    expect(pets.body).toEqual([
      { id: 30, name: 'Molly', categoryId: 7, status: 'pending' },
      { id: 29, name: 'Stella', categoryId: 4, status: 'available' },
    ]);
  });

  it('kennel check --spec on the grown document passes against the grown mock', async () => {
    const summary = await runContract({
      baseUrl: mock.url,
      apiKey: mock.key,
      specPath: path.join(directory, 'petstore.yaml'),
      seed: 5,
    });
    const errors = summary.cases.flatMap((result) =>
      result.failures.filter((failure) => failure.severity === 'error').map((failure) => failure.title),
    );
    expect(errors).toEqual([]);
    expect(summary.exitCode).toBe(0);
    const passed = (operationId: string) =>
      summary.cases
        .filter((result) => result.operationId === operationId && result.status === 'passed')
        .map((result) => result.check);
    expect(passed('placeOrder')).toEqual(
      expect.arrayContaining(['resource-round-trip', 'id-uniqueness', 'data-fidelity', 'location-resolves']),
    );
    expect(passed('listStoreOrders')).toEqual(expect.arrayContaining(['collection-consistency', 'limit-honoured']));
  });
});
