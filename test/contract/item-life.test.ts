// Issue 16: the life of an item beyond create, read and delete, proved on fixtures/contract/orders.yaml
// (test/contract/orders-server.ts). A correct server passes every check; each fault breaks one
// promise the document makes and is caught by the check named: actions on a deleted item and
// state-moving actions sent twice (resource-lifecycle), unknown ids on a DELETE and on a GET of
// something of an item's (not-found-conformance), a read answering another item
// (read-returns-requested), a key handed out twice (ids-never-reused), a create whose own
// answer shows another reference when nothing reads it back (resource-round-trip).
import { describe, expect, it } from 'vitest';
import { runContract, type RunSummary } from '../../src/contract/run/runner.js';
import { startTestMock } from '../helpers/mock-client.js';
import { findingTitles } from './helpers.js';
import { ORDERS_SPEC, startOrdersServer, type OrdersFault } from './orders-server.js';

const KEY = 'orders-key-5';

async function checkOrders(fault?: OrdersFault, checks?: string[]): Promise<RunSummary> {
  const server = await startOrdersServer(KEY, fault);
  try {
    return await runContract({ baseUrl: server.url, apiKey: KEY, specPath: ORDERS_SPEC, seed: 3, checks });
  } finally {
    await server.close();
  }
}

const statusOf = (summary: RunSummary, check: string, operationId: string) =>
  summary.cases.find((result) => result.check === check && result.operationId === operationId)?.status;

describe('the life of an item: actions, sub-resources, keys (orders.yaml)', () => {
  it('passes the correct server, each new judgement exercised', async () => {
    const summary = await checkOrders();
    expect(findingTitles(summary, 'error')).toEqual([]);
    // One product in four is sold out (409): the lifecycle's create tries another body and goes on.
    expect(statusOf(summary, 'resource-lifecycle', 'createOrder')).toBe('passed');
    expect(statusOf(summary, 'read-returns-requested', 'getProduct')).toBe('passed');
    expect(statusOf(summary, 'not-found-conformance', 'cancelOrder')).toBe('passed');
    expect(statusOf(summary, 'not-found-conformance', 'getReceipt')).toBe('passed');
    expect(statusOf(summary, 'resource-round-trip', 'sendGift')).toBe('passed');
    expect(statusOf(summary, 'ids-never-reused', 'createOrder')).toBe('passed');
  }, 60_000);

  it.each<[OrdersFault, string[], string]>([
    ['pay-after-cancel', ['resource-lifecycle'], 'resource-lifecycle createOrder: payOrder acted on deleted'],
    ['pay-twice', ['resource-lifecycle'], 'resource-lifecycle createOrder: payOrder was accepted twice'],
    ['cancel-unknown-204', ['not-found-conformance'], 'not-found-conformance cancelOrder: answered 204 for DELETE'],
    ['receipt-unknown-200', ['not-found-conformance'], 'not-found-conformance getReceipt: answered 200 for GET'],
    ['product-read-first', ['read-returns-requested'], 'read-returns-requested getProduct: a read of id'],
    ['order-ids-reused', ['ids-never-reused', 'id-uniqueness'], 'ids-never-reused createOrder: id'],
    ['gift-product-swapped', ['resource-round-trip'], 'resource-round-trip sendGift: create response differs'],
  ])(
    'catches %s',
    async (fault, checks, finding) => {
      const summary = await checkOrders(fault, checks);
      expect(findingTitles(summary, 'error').filter((title) => title.startsWith(finding))).not.toEqual([]);
    },
    30_000,
  );

  it('kennel serve of the document agrees: actions and item sub-GETs answer 404 for an order not there', async () => {
    const mock = await startTestMock({ specPath: ORDERS_SPEC });
    try {
      const key = { headers: { 'x-api-key': mock.key, authorization: null } };
      const products = await mock.request('GET', '/products', key);
      const order = await mock.request('POST', '/orders', {
        ...key,
        body: { product_id: products.body[0].id, quantity: 1 },
      });
      expect(order.status).toBe(201);
      const unknown = '0b7c2f0e-3f6a-4c1e-9d7a-5e2f8a1b3c4d';
      const pay = (id: string) =>
        mock.request('POST', `/orders/${id}/payment`, { ...key, body: { card_number: '4111111111111111' } });
      expect((await pay(order.body.id)).status).toBe(201);
      expect((await pay(unknown)).status).toBe(404);
      expect((await mock.request('GET', `/orders/${order.body.id}/receipt`, key)).status).toBe(200);
      expect((await mock.request('GET', `/orders/${unknown}/receipt`, key)).status).toBe(404);
      const summary = await runContract({ baseUrl: mock.url, apiKey: mock.key, specPath: ORDERS_SPEC, seed: 3 });
      expect(findingTitles(summary, 'error')).toEqual([]);
    } finally {
      await mock.close();
    }
  }, 60_000);
});
