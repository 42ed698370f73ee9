// Stagedoor's reservations: createReservation, getReservation, cancelReservation, payReservation.
import { isJsonMediaType, isUuid, parseJson, uuidFor, type Incoming, type Reply } from '../http-kit.js';
import type { Performance } from './catalogue-data.js';
import { HOLD_MS, type Reservation, type Stagedoor } from './context.js';

const MAX_SEATS = 8;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export async function createReservation(api: Stagedoor, request: Incoming): Promise<Reply> {
  const body = await readJsonObject(api, request);
  const performanceId = body.performance_id;
  const seats = readSeats(api, body.seats);
  const holder = readHolder(api, body.holder);
  if (performanceId === undefined) throw api.refuse(422, 'performance_id is needed');
  if (!isUuid(performanceId)) throw api.invalidField('performance_id must be a uuid');
  const performance = findPerformance(api, performanceId);
  if (seats > performance.seatsAvailable)
    throw api.refuse(409, `Only ${performance.seatsAvailable} seats are left for this performance`);
  performance.seatsAvailable -= seats;
  const reservation = keep(api, {
    id: nextReservationId(api),
    performanceId: api.on('reservation-performance-swapped') ? firstOfVenue(api, performance).id : performance.id,
    seats,
    ...(holder === undefined ? {} : { holder }),
    status: 'held',
    total: { amount: performance.price.amount * seats, currency: performance.price.currency },
    createdAt: Date.now(),
    utcOffsetHours: api.venues.find((venue) => venue.id === performance.venueId)?.utcOffsetHours ?? 0,
  });
  return api.json(
    api.on('create-200') ? 200 : 201,
    reservationJson(api, reservation),
    locationOf(api, request, reservation),
  );
}

export function getReservation(api: Stagedoor, id: string): Reply {
  if (!isUuid(id) && api.on('malformed-id-500')) throw new TypeError(`invalid input syntax for type uuid: "${id}"`);
  const reservation = readReservation(api, id);
  if (!reservation && api.on('unknown-reservation-400')) return api.problem(400, `No reservation has the id ${id}`);
  if (!reservation) return api.problem(404, `No reservation has the id ${id}`);
  const shown = api.on('reservation-read-returns-latest') ? [...api.reservations.values()].at(-1)! : reservation;
  return api.json(200, reservationJson(api, shown));
}

export function cancelReservation(api: Stagedoor, id: string): Reply {
  const reservation = readReservation(api, id);
  if (!reservation && api.on('cancel-unknown-204')) return { status: 204 };
  if (!reservation) return api.problem(404, `No reservation has the id ${id}`);
  if (reservation.status === 'paid') return api.problem(409, 'A paid reservation cannot be cancelled');
  if (!api.on('cancel-does-not-delete')) {
    api.reservations.delete(id);
    api.cancelled.set(id, reservation);
    const performance = api.performances.find((candidate) => candidate.id === reservation.performanceId);
    if (performance) performance.seatsAvailable += reservation.seats;
  }
  return api.on('cancel-200-with-body') ? api.json(200, reservationJson(api, reservation)) : { status: 204 };
}

export async function payReservation(api: Stagedoor, request: Incoming, id: string): Promise<Reply> {
  let reservation = readReservation(api, id);
  if (!reservation && api.on('payment-after-cancel-accepted')) reservation = api.cancelled.get(id);
  if (!reservation) return api.problem(404, `No reservation has the id ${id}`);
  const body = await readJsonObject(api, request);
  const method = readPaymentMethod(api, body);
  if (method === 'bank_account' && api.on('bank-payment-500'))
    throw new Error('connect ECONNREFUSED 10.0.3.7:8443 (bank gateway)');
  if (reservation.status === 'paid' && !api.on('payment-accepted-twice'))
    return api.problem(409, 'This reservation is already paid');
  reservation.status = 'paid';
  api.paymentsMade += 1;
  const payment = {
    id: uuidFor(`stagedoor payment ${api.paymentsMade}`),
    reservation_id: reservation.id,
    method,
    amount: reservation.total,
    status: 'captured',
    paid_at: api.dateTime(Date.now(), reservation.utcOffsetHours),
    ...(api.variant.extraFields ? { receipt_url: `/v2/receipts/${api.paymentsMade}` } : {}),
  };
  return api.json(api.on('payment-200') ? 200 : 201, payment);
}

function reservationJson(api: Stagedoor, reservation: Reservation): unknown {
  const at = (ms: number) => api.dateTime(ms, reservation.utcOffsetHours);
  return {
    id: reservation.id,
    performance_id: reservation.performanceId,
    seats: reservation.seats,
    ...(reservation.holder === undefined ? {} : { holder: reservation.holder }),
    status: reservation.status,
    total: reservation.total,
    created_at: at(reservation.createdAt),
    expires_at: at(reservation.createdAt + HOLD_MS),
    ...(api.variant.extraFields ? { _links: { payment: `/v2/reservations/${reservation.id}/payment` } } : {}),
  };
}

/** Stores a reservation as the deployment (or its fault) does; answers what the 201 shows. */
function keep(api: Stagedoor, reservation: Reservation): Reservation {
  if (api.on('create-ignored')) return reservation;
  const stored: Reservation = { ...reservation };
  if (api.on('seats-read-back-as-one')) stored.seats = 1;
  if (api.on('holder-dropped')) delete stored.holder;
  api.reservations.delete(stored.id);
  api.reservations.set(stored.id, stored);
  return api.on('reservation-performance-swapped') ? stored : reservation;
}

function nextReservationId(api: Stagedoor): string {
  api.reservationsMade += 1;
  const reused = api.on('reservation-ids-reused') && api.reservationsMade % 25 === 0;
  return uuidFor(`stagedoor reservation ${reused ? 1 : api.reservationsMade}`);
}

function locationOf(api: Stagedoor, request: Incoming, reservation: Reservation): Record<string, string> {
  if (api.on('location-missing')) return {};
  const previous = api.on('location-previous-reservation')
    ? uuidFor(`stagedoor reservation ${api.reservationsMade - 1}`)
    : undefined;
  const path = `/v2/reservations/${previous ?? reservation.id}`;
  return { location: api.variant.absoluteLinks ? `${request.origin}${path}` : path };
}

function readReservation(api: Stagedoor, id: string): Reservation | undefined {
  if (!isUuid(id)) throw api.malformedId('reservationId', id);
  return api.reservations.get(id);
}

function findPerformance(api: Stagedoor, id: string): Performance {
  const performance = api.performances.find((candidate) => candidate.id === id);
  if (performance) return performance;
  if (api.on('unknown-performance-404')) throw api.refuse(404, `No performance has the id ${id}`);
  if (!api.on('unknown-performance-accepted')) throw api.refuse(422, `No performance has the id ${id}`);
  return { ...api.performances[0]!, id, seatsAvailable: MAX_SEATS * 1000 };
}

function firstOfVenue(api: Stagedoor, performance: Performance): Performance {
  const first = api.performances.find((candidate) => candidate.venueId === performance.venueId)!;
  return first.id === performance.id
    ? api.performances.find((candidate) => candidate.venueId !== performance.venueId)!
    : first;
}

async function readJsonObject(api: Stagedoor, request: Incoming): Promise<Record<string, unknown>> {
  const text = await request.body();
  if (text === undefined) throw api.refuse(413, 'The body is too large');
  if (!isJsonMediaType(request.headers['content-type'])) throw api.badRequest('The body must be application/json');
  const parsed = parseJson(text);
  if (!parsed && api.on('malformed-json-500')) throw new SyntaxError(`Unexpected token in JSON: ${text.slice(0, 20)}`);
  if (!parsed) throw api.badRequest('The body is not valid JSON');
  const { value } = parsed;
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw api.badRequest('The body must be a JSON object');
  return value as Record<string, unknown>;
}

function readSeats(api: Stagedoor, value: unknown): number {
  if (value === undefined) return 1;
  if (value === 0 && api.on('seats-zero-accepted')) return 0;
  if (!Number.isInteger(value) || (value as number) < 1 || (value as number) > MAX_SEATS)
    throw api.invalidField(`seats must be an integer from 1 to ${MAX_SEATS}`);
  return value as number;
}

function readHolder(api: Stagedoor, value: unknown): Reservation['holder'] {
  if (value === undefined) return undefined;
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw api.invalidField('holder must be an object');
  const { name, email } = value as Record<string, unknown>;
  if (typeof name !== 'string' || name.length < 1 || name.length > 100)
    throw api.invalidField('holder.name must be a string of 1 to 100 characters');
  if (typeof email !== 'string' || (!EMAIL.test(email) && !api.on('email-unchecked')))
    throw api.invalidField('holder.email must be an email address');
  return { name, email };
}

function readPaymentMethod(api: Stagedoor, body: Record<string, unknown>): 'card' | 'bank_account' {
  const text = (field: string, pattern: RegExp) => typeof body[field] === 'string' && pattern.test(body[field]);
  const integer = (field: string, min: number, max: number) =>
    Number.isInteger(body[field]) && (body[field] as number) >= min && (body[field] as number) <= max;
  if (body.method === 'card') {
    const cardNumber = api.on('card-number-unchecked') ? /^/ : /^[0-9]{12,19}$/;
    if (
      !text('card_number', cardNumber) ||
      !integer('expiry_month', 1, 12) ||
      !integer('expiry_year', 2026, 2099) ||
      !text('cvc', /^[0-9]{3,4}$/)
    )
      throw api.invalidField(
        'A card payment needs card_number (12-19 digits), expiry_month, expiry_year and cvc (3-4 digits)',
      );
    return 'card';
  }
  if (body.method === 'bank_account') {
    if (!text('iban', /^[A-Z]{2}[0-9]{2}[A-Z0-9]{11,30}$/) || !text('account_holder', /^[\s\S]+$/))
      throw api.invalidField('A bank_account payment needs iban and account_holder');
    return 'bank_account';
  }
  throw api.invalidField('method must be card or bank_account');
}
