// A small, correct server for fixtures/contract/box-office.yaml: seeded halls and shows behind a
// nested (`city` → `address.city`) and a required text filter (`hall_id`), bookings whose body has
// a nested email, a fractional price and an array of dates, and a oneOf payment with patterned
// fields, paid once. Each fault is one input a real implementation mishandles.
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage } from 'node:http';
import { fileURLToPath } from 'node:url';
import { listenOnLoopback, type LoopbackServer } from '../helpers/loopback.js';

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

class Reply extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

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
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new Reply(400, `${what} is an object`);
  return value as Fields;
}

function bookingOf(value: unknown, has: (fault: BoxOfficeFault) => boolean): Fields {
  const body = object(value, 'a booking');
  if (typeof body.show_id !== 'string' || !UUID.test(body.show_id)) throw new Reply(400, 'show_id is a uuid');
  const guest = object(body.guest, 'guest');
  if (typeof guest.name !== 'string' || guest.name.length < 1 || guest.name.length > 60)
    throw new Reply(400, 'guest.name is 1 to 60 characters');
  if (typeof guest.email !== 'string' || (!EMAIL.test(guest.email) && !has('email-unchecked')))
    throw new Reply(400, 'guest.email is an email address');
  if (typeof body.price !== 'number' || body.price < 0 || body.price > 10000)
    throw new Reply(400, 'price is a number from 0 to 10000');
  const dates = typeof body.dates === 'string' && has('dates-bare-accepted') ? [body.dates] : body.dates;
  if (!Array.isArray(dates) || dates.length < 1 || dates.length > 5 || !dates.every((d) => DATE.test(String(d))))
    throw new Reply(400, 'dates is an array of 1 to 5 dates');
  for (const name of Object.keys(body))
    if (!['show_id', 'guest', 'price', 'dates'].includes(name)) throw new Reply(400, `unknown property ${name}`);
  if (!SHOWS.some((show) => show.id === body.show_id)) throw new Reply(400, 'no such show');
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
      throw new Reply(400, 'card_number is 12 to 19 digits');
    if (Object.keys(body).some((name) => !['method', 'card_number'].includes(name)))
      throw new Reply(400, 'unknown property');
    return 'card';
  }
  if (body.method === 'voucher') {
    if (typeof body.code !== 'string' || !/^[A-Z]{4}-[0-9]{4}$/.test(body.code))
      throw new Reply(400, 'code is AAAA-0000');
    if (Object.keys(body).some((name) => !['method', 'code'].includes(name))) throw new Reply(400, 'unknown property');
    return 'voucher';
  }
  throw new Reply(400, 'method is card or voucher');
}

/** Starts the box office; every request needs `Authorization: Bearer <apiKey>`. */
export async function startBoxOffice(apiKey: string, faults: readonly BoxOfficeFault[] = []): Promise<LoopbackServer> {
  const has = (fault: BoxOfficeFault) => faults.includes(fault);
  const bookings = new Map<string, Fields>();
  const paid = new Set<string>();

  function route(method: string, url: URL, request: IncomingMessage, text: string): { status: number; body: unknown } {
    const auth = request.headers.authorization ?? '';
    if (!/^bearer +/i.test(auth) || auth.replace(/^bearer +/i, '') !== apiKey)
      throw new Reply(401, 'a bearer token is needed');
    const parts = url.pathname.split('/').filter(Boolean);
    const read = (): unknown => {
      if ((request.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase() !== 'application/json')
        throw new Reply(400, 'send application/json');
      try {
        return JSON.parse(text);
      } catch {
        throw new Reply(400, 'malformed JSON');
      }
    };
    if (parts[0] === 'halls' && parts.length === 1 && method === 'GET') {
      const city = url.searchParams.get('city');
      if (city === '') throw new Reply(400, 'city is not empty');
      const halls = HALLS.filter(
        (hall) => city === null || has('city-ignored') || (hall.address as Fields).city === city,
      );
      return { status: 200, body: { data: halls } };
    }
    if (parts[0] === 'shows' && parts.length === 1 && method === 'GET') {
      const hall = url.searchParams.get('hall_id');
      if (hall === null || !UUID.test(hall)) throw new Reply(400, 'hall_id is a uuid');
      return { status: 200, body: SHOWS.filter((show) => has('hall-ignored') || show.hall_id === hall) };
    }
    if (parts[0] === 'bookings' && parts.length === 1 && method === 'POST') {
      const booking = bookingOf(read(), has);
      bookings.set(String(booking.id), booking);
      return { status: 201, body: booking };
    }
    if (parts[0] === 'bookings' && parts.length >= 2 && parts.length <= 3) {
      const id = parts[1]!;
      if (!UUID.test(id)) throw new Reply(400, 'bookingId is a uuid');
      if (parts.length === 2 && method === 'GET') {
        const booking = bookings.get(id);
        if (!booking) throw new Reply(404, 'no such booking');
        return { status: 200, body: booking };
      }
      if (parts[2] === 'payment' && method === 'POST') {
        const payment = paymentMethod(read(), has);
        if (!bookings.has(id)) throw new Reply(404, 'no such booking');
        if (paid.has(id)) throw new Reply(409, 'already paid');
        paid.add(id);
        return { status: 201, body: { id: randomUUID(), booking_id: id, method: payment } };
      }
    }
    throw new Reply(404, 'no such path');
  }

  const server = createServer((request, response) => {
    let text = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => (text += chunk));
    request.on('end', () => {
      let reply: { status: number; body: unknown };
      try {
        reply = route(request.method ?? 'GET', new URL(request.url ?? '/', 'http://box-office'), request, text);
      } catch (error) {
        if (!(error instanceof Reply)) throw error;
        reply = { status: error.status, body: { status: error.status, title: error.message } };
      }
      const headers: Record<string, string> = { 'content-type': 'application/json' };
      if (reply.status === 401) headers['www-authenticate'] = 'Bearer';
      response.writeHead(reply.status, headers).end(JSON.stringify(reply.body));
    });
  });
  return listenOnLoopback(server);
}
