// A server for fixtures/agreement/variant-list-items.yaml: a menu whose items are beverages or
// desserts (variants keyed by a shared id). The fault `list-misses-new` lists only the items it
// started with: a list of variants must be judged as a list to catch it.
import { fileURLToPath } from 'node:url';
import { jsonBody, Refusal, startJsonServer, type Answer, type ReceivedRequest } from '../helpers/json-server.js';
import type { LoopbackServer } from '../helpers/loopback.js';

export const MENU_SPEC = fileURLToPath(new URL('../fixtures/agreement/variant-list-items.yaml', import.meta.url));

export type MenuFault = 'list-misses-new';

type MenuItem = Record<string, unknown> & { id: number };

const VARIANTS: Record<string, { measure: string; minimum: number; maximum: number }> = {
  beverage: { measure: 'volume', minimum: 100, maximum: 1000 },
  dessert: { measure: 'sweetness', minimum: 1, maximum: 5 },
};

/** A new beverage or dessert: its kind, a name of 1 to 40 characters and its own measure, nothing else. */
function newItem(request: ReceivedRequest): Omit<MenuItem, 'id'> {
  const body = jsonBody(request) as Record<string, unknown> | null;
  if (body === null || typeof body !== 'object' || Array.isArray(body)) throw new Refusal(400, 'send an object');
  const variant = VARIANTS[String(body.kind)];
  if (!variant) throw new Refusal(400, 'kind is beverage or dessert');
  const { kind, name, [variant.measure]: measure, ...rest } = body;
  if (Object.keys(rest).length > 0) throw new Refusal(400, `unknown property ${Object.keys(rest)[0]}`);
  if (typeof name !== 'string' || [...name].length < 1 || [...name].length > 40)
    throw new Refusal(400, 'name: 1 to 40 characters');
  if (!Number.isInteger(measure) || (measure as number) < variant.minimum || (measure as number) > variant.maximum)
    throw new Refusal(400, `${variant.measure}: ${variant.minimum} to ${variant.maximum}`);
  return { kind, name, [variant.measure]: measure };
}

export function startMenu(fault?: MenuFault): Promise<LoopbackServer> {
  const items: MenuItem[] = [
    { id: 1, kind: 'beverage', name: 'Tea', volume: 250 },
    { id: 2, kind: 'dessert', name: 'Flan', sweetness: 3 },
  ];
  const seeded = items.length;

  function list(url: URL): MenuItem[] {
    const raw = url.searchParams.get('limit');
    if (raw !== null && (!/^[0-9]+$/.test(raw) || Number(raw) < 1 || Number(raw) > 50))
      throw new Refusal(400, 'limit is 1 to 50');
    const shown = fault === 'list-misses-new' ? items.slice(0, seeded) : items;
    return shown.slice(0, raw === null ? 20 : Number(raw));
  }

  function route(request: ReceivedRequest): Answer {
    const { method, url } = request;
    if (url.pathname === '/menu' && method === 'GET') return { status: 200, body: list(url) };
    if (url.pathname === '/menu' && method === 'POST') {
      const item = { id: items.length + 1, ...newItem(request) };
      items.push(item);
      return { status: 201, body: item };
    }
    const one = /^\/menu\/([^/]+)$/.exec(url.pathname);
    if (!one || method !== 'GET') throw new Refusal(404, `nothing at ${method} ${url.pathname}`);
    const found = items.find((item) => String(item.id) === one[1]);
    if (!found) throw new Refusal(404, `no menu item ${one[1]}`);
    return { status: 200, body: found };
  }

  return startJsonServer(route, (refusal) => ({ status: refusal.status, body: { error: refusal.message } }));
}
