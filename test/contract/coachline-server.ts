// A correct Coachline server (fixtures/explore/coachline*.yaml) in three shapes of the same API,
// with switchable faults: each fault breaks what only a client that explores finds (a page, a
// booking, a confirmation), so the tests prove kennel check reaches it. Plain node:http.
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import {
  bearerToken,
  jsonBody,
  mediaTypeOf,
  Refusal,
  startJsonServer,
  type Answer,
  type ReceivedRequest,
} from '../helpers/json-server.js';
import type { LoopbackServer } from '../helpers/loopback.js';
import {
  bookingRequest,
  DEPARTURES,
  integerParameter,
  problemAnswer,
  searchDepartures,
  STOPS,
  uuidParameter,
  type Json,
} from './coachline-data.js';

const fixture = (name: string) => fileURLToPath(new URL(`../fixtures/explore/${name}`, import.meta.url));

/** The documents, one per shape: envelopes with `links`, items wrapped in `data`, `Link` headers. */
export const COACHLINE_SPECS = {
  envelope: fixture('coachline.yaml'),
  wrapped: fixture('coachline-wrapped.yaml'),
  'link-header': fixture('coachline-link-header.yaml'),
} as const;

export type CoachShape = keyof typeof COACHLINE_SPECS;

export type CoachFault =
  | 'page-repeats'
  | 'next-on-last-page'
  | 'next-missing'
  | 'page-over-limit'
  | 'next-loops'
  | 'next-broken'
  | 'booking-wrong-departure'
  | 'booking-not-stored'
  | 'cancel-ignored'
  | 'confirm-crashes'
  | 'fare-as-text'
  | 'unknown-booking-200'
  | 'unknown-departure-422';

export interface CoachOptions {
  shape?: CoachShape;
  fault?: CoachFault;
  /** Correct variants: relative next links, or `next` left out (not null) on the last page. */
  variant?: 'relative-links' | 'omit-null-next';
}

export const COACH_TOKEN = 'coach-token';

interface Page {
  items: Json[];
  links: Record<string, string | null>;
}

export async function startCoachline(options: CoachOptions = {}): Promise<LoopbackServer> {
  const shape = options.shape ?? 'envelope';
  const has = (fault: CoachFault) => options.fault === fault;
  const bookings = new Map<string, Json>();

  /** A page of `all` from `offset`; links name other pages through `at` (a page number or an `after` time). */
  function paginate(
    all: Json[],
    offset: number,
    limit: number,
    self: URL,
    at: (offset: number) => [string, string],
  ): Page {
    const start = has('page-repeats') && offset > 0 ? offset - 1 : offset;
    const items = all.slice(start, start + limit + (has('page-over-limit') ? 1 : 0));
    const link = (to: number | undefined): string | null => {
      if (to === undefined) return null;
      const url = new URL(self);
      const [name, value] = at(to);
      url.searchParams.set(name, value);
      if (has('next-broken')) url.pathname = url.pathname.replace(/s$/, '');
      return options.variant === 'relative-links' ? `${url.pathname}${url.search}` : url.toString();
    };
    let next = offset + limit < all.length || has('next-on-last-page') ? offset + limit : undefined;
    if (has('next-missing')) next = undefined;
    if (has('next-loops') && offset > 0) next = 0;
    const prev = offset > 0 ? Math.max(0, offset - limit) : undefined;
    return { items, links: { self: self.toString(), next: link(next), prev: link(prev) } };
  }

  function stopsPage(url: URL): Page {
    const page = integerParameter(url.searchParams, 'page', 1, 1_000_000, 1);
    const limit = integerParameter(url.searchParams, 'limit', 1, 20, 10);
    return paginate(STOPS, (page - 1) * limit, limit, url, (offset) => ['page', String(offset / limit + 1)]);
  }

  function departuresPage(url: URL): Page {
    const found = searchDepartures(url.searchParams);
    const limit = integerParameter(url.searchParams, 'limit', 1, 20, 5);
    const shown: Json[] = has('fare-as-text')
      ? found.map((departure) => ({ ...departure, fare: { amount: '29.00', currency: 'EUR' } }))
      : found;
    // The next page starts one second after the last departure shown: a link with a later `after`.
    return paginate(shown, 0, limit, url, (offset) => {
      const previous = Date.parse(String(shown[offset - 1]?.departs_at ?? url.searchParams.get('after')));
      return ['after', new Date(previous + 1000).toISOString().replace('.000', '')];
    });
  }

  function booking(id: string): Json {
    const found = bookings.get(id);
    if (found && !has('booking-not-stored')) return found;
    if (has('unknown-booking-200')) return found ?? { ...bookings.values().next().value, id };
    throw new Refusal(404, `no booking ${id}`);
  }

  function create(value: unknown, url: URL): { status: number; body: Json; headers: Record<string, string> } {
    const body = shape === 'wrapped' ? (value as Json | null)?.booking : value;
    const { departure, passenger_name, seats } = bookingRequest(body, has('unknown-departure-422') ? 422 : 404);
    const other = DEPARTURES.find((candidate) => candidate.id !== departure.id)!;
    const id = randomUUID();
    const made = {
      id,
      departure_id: has('booking-wrong-departure') ? other.id : departure.id,
      passenger_name,
      seats,
      status: 'held',
    };
    bookings.set(id, made);
    return { status: 201, body: made, headers: { location: `${url.origin}/api/bookings/${id}` } };
  }

  function listed(page: Page): { body: unknown; headers: Record<string, string> } {
    if (shape === 'link-header') {
      const links = Object.entries(page.links)
        .filter(([rel, uri]) => uri !== null && rel !== 'self')
        .map(([rel, uri]) => `<${uri}>; rel="${rel}"`);
      return { body: page.items, headers: links.length > 0 ? { link: links.join(', ') } : {} };
    }
    const links = { ...page.links };
    if (options.variant === 'omit-null-next' && links.next === null) delete links.next;
    return { body: { data: page.items, links }, headers: {} };
  }

  const single = (item: Json): Json => (shape === 'wrapped' ? { data: item } : item);

  function route(request: ReceivedRequest): Answer {
    if (bearerToken(request.headers) !== COACH_TOKEN) throw new Refusal(401, 'a bearer token is required');
    const { method, url } = request;
    const path = url.pathname.replace(/^\/api/, '');
    if (path === '/stops' && method === 'GET') return { status: 200, ...listed(stopsPage(url)) };
    if (path === '/departures' && method === 'GET') return { status: 200, ...listed(departuresPage(url)) };
    const stop = /^\/stops\/([^/]+)$/.exec(path);
    if (stop && method === 'GET') {
      const found = STOPS.find((candidate) => candidate.id === decodeURIComponent(stop[1]!));
      if (!found) throw new Refusal(404, `no stop ${stop[1]}`);
      return { status: 200, body: single(found) };
    }
    if (path === '/bookings' && method === 'POST') {
      if (mediaTypeOf(request.headers) !== 'application/json')
        throw new Refusal(400, 'send the booking as application/json');
      const made = create(jsonBody(request), url);
      return { ...made, body: single(made.body) };
    }
    const item = /^\/bookings\/([^/]+)(\/confirm)?$/.exec(path);
    if (!item) throw new Refusal(404, `nothing at ${url.pathname}`);
    const id = decodeURIComponent(item[1]!);
    if (!/^[0-9a-f-]{36}$/.test(id)) throw new Refusal(404, `no booking ${id}`);
    if (item[2] && method === 'POST') {
      if (has('confirm-crashes')) throw new Refusal(500, 'the payment service is down');
      const confirmed = { ...booking(id), status: 'confirmed' };
      bookings.set(id, confirmed);
      return { status: 200, body: single(confirmed) };
    }
    if (item[2]) throw new Refusal(405, `${method} is not allowed here`);
    if (method === 'GET') return { status: 200, body: single(booking(uuidParameter('booking_id', id, 404))) };
    if (method === 'DELETE') {
      booking(id);
      if (!has('cancel-ignored')) bookings.delete(id);
      return { status: 204 };
    }
    throw new Refusal(405, `${method} is not allowed here`);
  }

  return startJsonServer(route, problemAnswer('coachline'));
}
