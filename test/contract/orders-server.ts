// A small, correct server for fixtures/contract/orders.yaml: products to order (one in four sold
// out), orders read, cancelled (then 404) and paid once (409 after), their receipts, and gifts
// that are never read back. Each fault breaks one promise of the document about an item's life,
// so that the tests prove the checks catch it.
import { createHash } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { jsonBody, Refusal, startJsonServer, type Answer, type ReceivedRequest } from '../helpers/json-server.js';
import type { LoopbackServer } from '../helpers/loopback.js';

export const ORDERS_SPEC = fileURLToPath(new URL('../fixtures/contract/orders.yaml', import.meta.url));

export type OrdersFault =
  /** A cancelled order can still be paid. */
  | 'pay-after-cancel'
  /** A paid order is paid again (201, not 409). */
  | 'pay-twice'
  /** Cancelling an order that does not exist answers 204. */
  | 'cancel-unknown-204'
  /** The receipt of an order that does not exist answers 200. */
  | 'receipt-unknown-200'
  /** A product read answers the first product, whatever the id. */
  | 'product-read-first'
  /** Every fifth order takes the id of the first one. */
  | 'order-ids-reused'
  /** A gift is sent of another product than the one named. */
  | 'gift-product-swapped';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

interface Order {
  id: string;
  product_id: string;
  quantity: number;
  status: 'open' | 'paid';
}

function uuidFor(text: string): string {
  const hex = createHash('sha256').update(text).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-8${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

const PRODUCTS = Array.from({ length: 8 }, (_, index) => ({
  id: uuidFor(`orders product ${index}`),
  name: `product ${index}`,
  price: 100 * (index + 1),
}));
const SOLD_OUT = new Set(PRODUCTS.filter((_, index) => index % 4 === 3).map((product) => product.id));

function parseObject(request: ReceivedRequest): Record<string, unknown> {
  const value = jsonBody(request);
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new Refusal(400, 'send an object');
  return value as Record<string, unknown>;
}

function only(body: Record<string, unknown>, names: readonly string[]): void {
  const unknown = Object.keys(body).find((name) => !names.includes(name));
  if (unknown !== undefined) throw new Refusal(400, `unknown property ${unknown}`);
}

function uuidIn(raw: string, name: string): string {
  if (!UUID.test(raw)) throw new Refusal(400, `${name} is a uuid`);
  return raw;
}

export async function startOrdersServer(apiKey: string, fault?: OrdersFault): Promise<LoopbackServer> {
  const orders = new Map<string, Order>();
  let made = 0;
  let gifts = 0;
  const on = (name: OrdersFault) => fault === name;

  function product(body: Record<string, unknown>): (typeof PRODUCTS)[number] {
    if (typeof body.product_id !== 'string' || !UUID.test(body.product_id))
      throw new Refusal(400, 'product_id is a uuid');
    const found = PRODUCTS.find((candidate) => candidate.id === body.product_id);
    if (!found) throw new Refusal(422, `no product ${body.product_id}`);
    if (SOLD_OUT.has(found.id)) throw new Refusal(409, `${found.name} is sold out`);
    return found;
  }

  function createOrder(body: Record<string, unknown>): Order {
    only(body, ['product_id', 'quantity']);
    const quantity = body.quantity === undefined ? 1 : body.quantity;
    if (!Number.isInteger(quantity) || (quantity as number) < 1 || (quantity as number) > 5)
      throw new Refusal(400, 'quantity is an integer from 1 to 5');
    const ordered = product(body);
    made += 1;
    const id = uuidFor(`orders order ${on('order-ids-reused') && made % 5 === 0 ? 1 : made}`);
    const order: Order = { id, product_id: ordered.id, quantity: quantity as number, status: 'open' };
    orders.set(id, order);
    return order;
  }

  function pay(id: string, body: Record<string, unknown>, cancelled: Map<string, Order>): unknown {
    const order = orders.get(id) ?? (on('pay-after-cancel') ? cancelled.get(id) : undefined);
    if (!order) throw new Refusal(404, `no order ${id}`);
    only(body, ['card_number']);
    if (typeof body.card_number !== 'string' || !/^[0-9]{16}$/.test(body.card_number))
      throw new Refusal(400, 'card_number is 16 digits');
    if (order.status === 'paid' && !on('pay-twice')) throw new Refusal(409, 'the order is paid');
    order.status = 'paid';
    const price = PRODUCTS.find((candidate) => candidate.id === order.product_id)!.price;
    return { id: uuidFor(`orders payment ${id} ${Math.random()}`), order_id: id, amount: price * order.quantity };
  }

  const cancelled = new Map<string, Order>();

  function route(request: ReceivedRequest): Answer {
    if (request.headers['x-api-key'] !== apiKey) throw new Refusal(401, 'the X-Api-Key header is required');
    const { method } = request;
    const path = request.url.pathname;
    if (path === '/products' && method === 'GET') return { status: 200, body: PRODUCTS };
    const productPath = /^\/products\/([^/]+)$/.exec(path);
    if (productPath && method === 'GET') {
      const id = uuidIn(decodeURIComponent(productPath[1]!), 'productId');
      const found = PRODUCTS.find((candidate) => candidate.id === id);
      if (!found) throw new Refusal(404, `no product ${id}`);
      return { status: 200, body: on('product-read-first') ? PRODUCTS[0] : found };
    }
    if (path === '/orders' && method === 'POST') return { status: 201, body: createOrder(parseObject(request)) };
    if (path === '/gifts' && method === 'POST') {
      const body = parseObject(request);
      only(body, ['product_id']);
      const sent = product(body);
      const shown = on('gift-product-swapped') ? PRODUCTS.find((candidate) => candidate.id !== sent.id)! : sent;
      gifts += 1;
      return { status: 201, body: { id: uuidFor(`orders gift ${gifts}`), product_id: shown.id } };
    }
    const orderPath = /^\/orders\/([^/]+)(\/payment|\/receipt)?$/.exec(path);
    if (!orderPath) throw new Refusal(404, `nothing at ${path}`);
    const id = uuidIn(decodeURIComponent(orderPath[1]!), 'orderId');
    const order = orders.get(id);
    if (orderPath[2] === '/payment' && method === 'POST')
      return { status: 201, body: pay(id, parseObject(request), cancelled) };
    if (orderPath[2] === '/receipt' && method === 'GET') {
      if (!order && !on('receipt-unknown-200')) throw new Refusal(404, `no order ${id}`);
      const price = order ? PRODUCTS.find((candidate) => candidate.id === order.product_id)!.price : 0;
      return { status: 200, body: { order_id: id, total: price * (order?.quantity ?? 0) } };
    }
    if (orderPath[2] !== undefined) throw new Refusal(405, `${method} is not allowed here`);
    if (method === 'GET') {
      if (!order) throw new Refusal(404, `no order ${id}`);
      return { status: 200, body: order };
    }
    if (method === 'DELETE') {
      if (!order && on('cancel-unknown-204')) return { status: 204 };
      if (!order) throw new Refusal(404, `no order ${id}`);
      if (order.status === 'paid') throw new Refusal(409, 'a paid order cannot be cancelled');
      orders.delete(id);
      cancelled.set(id, order);
      return { status: 204 };
    }
    throw new Refusal(405, `${method} is not allowed here`);
  }

  return startJsonServer(route, (refusal) => ({ status: refusal.status, body: { error: refusal.message } }));
}
