// A small, correct server for fixtures/contract/orders.yaml: products to order (one in four sold
// out), orders read, cancelled (then 404) and paid once (409 after), their receipts, and gifts
// that are never read back. Each fault breaks one promise of the document about an item's life,
// so that the tests prove the checks catch it.
import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage } from 'node:http';
import { fileURLToPath } from 'node:url';
import { listenOnLoopback, type LoopbackServer } from '../helpers/loopback.js';

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

class Reply extends Error {
  readonly status: number;

  constructor(status: number, message: string) {
    super(message);
    this.status = status;
  }
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

function parseObject(request: IncomingMessage, text: string): Record<string, unknown> {
  const type = (request.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  if (type !== 'application/json') throw new Reply(400, 'send application/json');
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new Reply(400, 'malformed JSON');
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new Reply(400, 'send an object');
  return value as Record<string, unknown>;
}

function only(body: Record<string, unknown>, names: readonly string[]): void {
  const unknown = Object.keys(body).find((name) => !names.includes(name));
  if (unknown !== undefined) throw new Reply(400, `unknown property ${unknown}`);
}

function uuidIn(raw: string, name: string): string {
  if (!UUID.test(raw)) throw new Reply(400, `${name} is a uuid`);
  return raw;
}

export async function startOrdersServer(apiKey: string, fault?: OrdersFault): Promise<LoopbackServer> {
  const orders = new Map<string, Order>();
  let made = 0;
  let gifts = 0;
  const on = (name: OrdersFault) => fault === name;

  function product(body: Record<string, unknown>): (typeof PRODUCTS)[number] {
    if (typeof body.product_id !== 'string' || !UUID.test(body.product_id))
      throw new Reply(400, 'product_id is a uuid');
    const found = PRODUCTS.find((candidate) => candidate.id === body.product_id);
    if (!found) throw new Reply(422, `no product ${body.product_id}`);
    if (SOLD_OUT.has(found.id)) throw new Reply(409, `${found.name} is sold out`);
    return found;
  }

  function createOrder(body: Record<string, unknown>): Order {
    only(body, ['product_id', 'quantity']);
    const quantity = body.quantity === undefined ? 1 : body.quantity;
    if (!Number.isInteger(quantity) || (quantity as number) < 1 || (quantity as number) > 5)
      throw new Reply(400, 'quantity is an integer from 1 to 5');
    const ordered = product(body);
    made += 1;
    const id = uuidFor(`orders order ${on('order-ids-reused') && made % 5 === 0 ? 1 : made}`);
    const order: Order = { id, product_id: ordered.id, quantity: quantity as number, status: 'open' };
    orders.set(id, order);
    return order;
  }

  function pay(id: string, body: Record<string, unknown>, cancelled: Map<string, Order>): unknown {
    const order = orders.get(id) ?? (on('pay-after-cancel') ? cancelled.get(id) : undefined);
    if (!order) throw new Reply(404, `no order ${id}`);
    only(body, ['card_number']);
    if (typeof body.card_number !== 'string' || !/^[0-9]{16}$/.test(body.card_number))
      throw new Reply(400, 'card_number is 16 digits');
    if (order.status === 'paid' && !on('pay-twice')) throw new Reply(409, 'the order is paid');
    order.status = 'paid';
    const price = PRODUCTS.find((candidate) => candidate.id === order.product_id)!.price;
    return { id: uuidFor(`orders payment ${id} ${Math.random()}`), order_id: id, amount: price * order.quantity };
  }

  const cancelled = new Map<string, Order>();

  function route(
    method: string,
    path: string,
    request: IncomingMessage,
    text: string,
  ): { status: number; body?: unknown } {
    if (path === '/products' && method === 'GET') return { status: 200, body: PRODUCTS };
    const productPath = /^\/products\/([^/]+)$/.exec(path);
    if (productPath && method === 'GET') {
      const id = uuidIn(decodeURIComponent(productPath[1]!), 'productId');
      const found = PRODUCTS.find((candidate) => candidate.id === id);
      if (!found) throw new Reply(404, `no product ${id}`);
      return { status: 200, body: on('product-read-first') ? PRODUCTS[0] : found };
    }
    if (path === '/orders' && method === 'POST') return { status: 201, body: createOrder(parseObject(request, text)) };
    if (path === '/gifts' && method === 'POST') {
      const body = parseObject(request, text);
      only(body, ['product_id']);
      const sent = product(body);
      const shown = on('gift-product-swapped') ? PRODUCTS.find((candidate) => candidate.id !== sent.id)! : sent;
      gifts += 1;
      return { status: 201, body: { id: uuidFor(`orders gift ${gifts}`), product_id: shown.id } };
    }
    const orderPath = /^\/orders\/([^/]+)(\/payment|\/receipt)?$/.exec(path);
    if (!orderPath) throw new Reply(404, `nothing at ${path}`);
    const id = uuidIn(decodeURIComponent(orderPath[1]!), 'orderId');
    const order = orders.get(id);
    if (orderPath[2] === '/payment' && method === 'POST')
      return { status: 201, body: pay(id, parseObject(request, text), cancelled) };
    if (orderPath[2] === '/receipt' && method === 'GET') {
      if (!order && !on('receipt-unknown-200')) throw new Reply(404, `no order ${id}`);
      const price = order ? PRODUCTS.find((candidate) => candidate.id === order.product_id)!.price : 0;
      return { status: 200, body: { order_id: id, total: price * (order?.quantity ?? 0) } };
    }
    if (orderPath[2] !== undefined) throw new Reply(405, `${method} is not allowed here`);
    if (method === 'GET') {
      if (!order) throw new Reply(404, `no order ${id}`);
      return { status: 200, body: order };
    }
    if (method === 'DELETE') {
      if (!order && on('cancel-unknown-204')) return { status: 204 };
      if (!order) throw new Reply(404, `no order ${id}`);
      if (order.status === 'paid') throw new Reply(409, 'a paid order cannot be cancelled');
      orders.delete(id);
      cancelled.set(id, order);
      return { status: 204 };
    }
    throw new Reply(405, `${method} is not allowed here`);
  }

  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const url = new URL(request.url ?? '/', 'http://orders.test');
      try {
        if (request.headers['x-api-key'] !== apiKey) throw new Reply(401, 'the X-Api-Key header is required');
        const answer = route(request.method ?? 'GET', url.pathname, request, Buffer.concat(chunks).toString('utf8'));
        if (answer.body === undefined) response.writeHead(answer.status).end();
        else response.writeHead(answer.status, { 'content-type': 'application/json' }).end(JSON.stringify(answer.body));
      } catch (error) {
        if (!(error instanceof Reply)) throw error;
        response.writeHead(error.status, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ error: error.message }));
      }
    });
  });
  return listenOnLoopback(server);
}
