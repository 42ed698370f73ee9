// A small, correct server for fixtures/contract/box-office.yaml: seeded halls and shows behind a
// nested (`city` → `address.city`) and a required text filter (`hall_id`), bookings whose body has
// a nested email, a fractional price and an array of dates, and a oneOf payment with patterned
// fields, paid once. Each fault is one input a real implementation mishandles.
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import {
  bearerToken,
  jsonBody,
  Refusal,
  startJsonServer,
  type Answer,
  type ReceivedRequest,
} from '../helpers/json-server.js';
import type { LoopbackServer } from '../helpers/loopback.js';

export const BOX_OFFICE_SPEC = fileURLToPath(new URL('../fixtures/contract/box-office.yaml', import.meta.url));

export type BoxOfficeFault =
  | 'city-ignored'
  | 'hall-ignored'
  | 'email-unchecked'
  | 'card-unchecked'
  | 'price-rounded'
  | 'dates-truncated'
  | 'dates-bare-accepted';

type Fields = Record<string, unknown>;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const DATE = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/;
const EMAIL = /^[^@\s]+@[^@\s]+\.[^@\s]+$/;

const CITIES = ['Lisbon', 'Oslo', 'Kyoto', 'Lima'];
const HALLS: Fields[] = CITIES.flatMap((city, index) =>
  [1, 2].map((n) => ({
    id: `00000000-0000-4000-8000-0000000000${index}${n}`,
    name: `${city} hall ${n}`,
    address: { street: `${n} Main street`, city },
  })),
);
const SHOWS: Fields[] = HALLS.flatMap((hall, index) =>
  [1, 2].map((n) => ({
    id: `00000000-0000-4000-9000-0000000000${index}${n}`,
    hall_id: hall.id,
    title: `Show ${n} at ${String(hall.name)}`,
  })),
);

function object(value: unknown, what: string): Fields {
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    throw new Refusal(400, `${what} is an object`);
  return value as Fields;
}

function bookingOf(value: unknown, has: (fault: BoxOfficeFault) => boolean): Fields {
  const body = object(value, 'a booking');
  if (typeof body.show_id !== 'string' || !UUID.test(body.show_id)) throw new Refusal(400, 'show_id is a uuid');
  const guest = object(body.guest, 'guest');
  if (typeof guest.name !== 'string' || guest.name.length < 1 || guest.name.length > 60)
    throw new Refusal(400, 'guest.name is 1 to 60 characters');
  if (typeof guest.email !== 'string' || (!EMAIL.test(guest.email) && !has('email-unchecked')))
    throw new Refusal(400, 'guest.email is an email address');
  if (typeof body.price !== 'number' || body.price < 0 || body.price > 10000)
    throw new Refusal(400, 'price is a number from 0 to 10000');
  const dates = typeof body.dates === 'string' && has('dates-bare-accepted') ? [body.dates] : body.dates;
  if (!Array.isArray(dates) || dates.length < 1 || dates.length > 5 || !dates.every((d) => DATE.test(String(d))))
    throw new Refusal(400, 'dates is an array of 1 to 5 dates');
  for (const name of Object.keys(body))
    if (!['show_id', 'guest', 'price', 'dates'].includes(name)) throw new Refusal(400, `unknown property ${name}`);
  if (!SHOWS.some((show) => show.id === body.show_id)) throw new Refusal(400, 'no such show');
  return {
    id: randomUUID(),
    show_id: body.show_id,
    guest: { name: guest.name, email: guest.email },
    price: has('price-rounded') ? Math.round(body.price) : body.price,
    dates: has('dates-truncated') ? dates.slice(0, 1) : dates,
  };
}

function paymentMethod(value: unknown, has: (fault: BoxOfficeFault) => boolean): string {
  const body = object(value, 'a payment');
  if (body.method === 'card') {
    const pattern = has('card-unchecked') ? /^/ : /^[0-9]{12,19}$/;
    if (typeof body.card_number !== 'string' || !pattern.test(body.card_number))
      throw new Refusal(400, 'card_number is 12 to 19 digits');
    if (Object.keys(body).some((name) => !['method', 'card_number'].includes(name)))
      throw new Refusal(400, 'unknown property');
    return 'card';
  }
  if (body.method === 'voucher') {
    if (typeof body.code !== 'string' || !/^[A-Z]{4}-[0-9]{4}$/.test(body.code))
      throw new Refusal(400, 'code is AAAA-0000');
    if (Object.keys(body).some((name) => !['method', 'code'].includes(name)))
      throw new Refusal(400, 'unknown property');
    return 'voucher';
  }
  throw new Refusal(400, 'method is card or voucher');
}

/** Starts the box office; every request needs `Authorization: Bearer <apiKey>`. */
export async function startBoxOffice(apiKey: string, faults: readonly BoxOfficeFault[] = []): Promise<LoopbackServer> {
  const has = (fault: BoxOfficeFault) => faults.includes(fault);
  const bookings = new Map<string, Fields>();
  const paid = new Set<string>();

  function route(request: ReceivedRequest): Answer {
    if (bearerToken(request.headers) !== apiKey) throw new Refusal(401, 'a bearer token is needed');
    const { method, url } = request;
    const parts = url.pathname.split('/').filter(Boolean);
    const read = (): unknown => jsonBody(request);
    if (parts[0] === 'halls' && parts.length === 1 && method === 'GET') {
      const city = url.searchParams.get('city');
      if (city === '') throw new Refusal(400, 'city is not empty');
      const halls = HALLS.filter(
        (hall) => city === null || has('city-ignored') || (hall.address as Fields).city === city,
      );
      return { status: 200, body: { data: halls } };
    }
    if (parts[0] === 'shows' && parts.length === 1 && method === 'GET') {
      const hall = url.searchParams.get('hall_id');
      if (hall === null || !UUID.test(hall)) throw new Refusal(400, 'hall_id is a uuid');
      return { status: 200, body: SHOWS.filter((show) => has('hall-ignored') || show.hall_id === hall) };
    }
    if (parts[0] === 'bookings' && parts.length === 1 && method === 'POST') {
      const booking = bookingOf(read(), has);
      bookings.set(String(booking.id), booking);
      return { status: 201, body: booking };
    }
    if (parts[0] === 'bookings' && parts.length >= 2 && parts.length <= 3) {
      const id = parts[1]!;
      if (!UUID.test(id)) throw new Refusal(400, 'bookingId is a uuid');
      if (parts.length === 2 && method === 'GET') {
        const booking = bookings.get(id);
        if (!booking) throw new Refusal(404, 'no such booking');
        return { status: 200, body: booking };
      }
      if (parts[2] === 'payment' && method === 'POST') {
        const payment = paymentMethod(read(), has);
        if (!bookings.has(id)) throw new Refusal(404, 'no such booking');
        if (paid.has(id)) throw new Refusal(409, 'already paid');
        paid.add(id);
        return { status: 201, body: { id: randomUUID(), booking_id: id, method: payment } };
      }
    }
    throw new Refusal(404, 'no such path');
  }

  return startJsonServer(route, refused);
}

/** A refusal: `{status, title}`, and a 401 challenges for a bearer token. */
function refused(error: Refusal): Answer {
  const headers: Record<string, string> = error.status === 401 ? { 'www-authenticate': 'Bearer' } : {};
  return { status: error.status, body: { status: error.status, title: error.message }, headers };
}
