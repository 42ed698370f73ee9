// The data of the Coachline reference server (fixtures/explore/coachline*.yaml): 23 stops, a
// timetable that links each stop to the next one only, and the rules a booking request must meet.
// Plain TypeScript, no kennel code: the server is an independent implementation of the document.

import { Refusal, type RefusalAnswer } from '../helpers/json-server.js';

export type Json = Record<string, unknown>;

/** How Coachline and the library refuse: RFC 9457 problem details, a 401 with a Bearer challenge. */
export function problemAnswer(realm: string): RefusalAnswer {
  return (refusal) => {
    const challenge: Record<string, string> =
      refusal.status === 401 ? { 'www-authenticate': `Bearer realm="${realm}"` } : {};
    const body = { type: 'about:blank', title: 'Request refused', status: refusal.status, detail: refusal.message };
    return { status: refusal.status, body, headers: challenge, type: 'application/problem+json' };
  };
}

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[1-8][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** A v4-shaped uuid made from a number: the same ids on every start, none of them the document's examples. */
export function uuidOf(kind: number, index: number): string {
  const hex = (value: number, width: number) => value.toString(16).padStart(width, '0');
  return `${hex(0x5e7a0000 + kind, 8)}-${hex(index, 4)}-4${hex(kind, 3)}-a${hex(index * 7, 3).slice(-3)}-${hex(index * 2654435761, 12).slice(-12)}`;
}

const CITIES = ['Lyon', 'Paris', 'Lille', 'Nantes', 'Dijon', 'Metz', 'Reims', 'Tours', 'Brest', 'Nice', 'Pau'];

export const STOPS: Json[] = Array.from({ length: 23 }, (_, index) => ({
  id: uuidOf(1, index),
  name: `Coach station ${index + 1}`,
  city: CITIES[index % CITIES.length]!,
  country: 'FR',
}));

const DAY_MS = 24 * 3600 * 1000;
const FIRST_DAY = Date.UTC(2031, 0, 8);

/** Departures between neighbouring stops only (stop i to stop i+1), twice a day for ten days. */
export const DEPARTURES: Json[] = STOPS.slice(0, -1).flatMap((origin, leg) =>
  Array.from({ length: 20 }, (_, slot) => {
    const departs = FIRST_DAY + Math.floor(slot / 2) * DAY_MS + (slot % 2 === 0 ? 7.5 : 15) * 3600 * 1000;
    return {
      id: uuidOf(2, leg * 20 + slot),
      origin: origin.id,
      destination: STOPS[leg + 1]!.id,
      departs_at: new Date(departs).toISOString().replace('.000', ''),
      arrives_at: new Date(departs + 4.5 * 3600 * 1000).toISOString().replace('.000', ''),
      seats_left: 40 - slot,
      fare: { amount: 1900 + leg * 100, currency: 'EUR' },
    };
  }),
);

/** A uuid path or query value, else the problem the document documents for it. */
export function uuidParameter(name: string, value: string | null, status: number): string {
  if (value === null || !UUID.test(value)) throw new Refusal(status, `${name} must be a uuid`);
  return value;
}

/** An integer query parameter within bounds (its default when absent). */
export function integerParameter(query: URLSearchParams, name: string, min: number, max: number, fallback: number) {
  const raw = query.get(name);
  if (raw === null) return fallback;
  if (!/^-?\d+$/.test(raw) || Number(raw) < min || Number(raw) > max)
    throw new Refusal(400, `${name} must be an integer from ${min} to ${max}`);
  return Number(raw);
}

/** The departures a search asks for: known stops (400 otherwise), departing at `after` or later. */
export function searchDepartures(query: URLSearchParams): Json[] {
  const origin = uuidParameter('origin', query.get('origin'), 400);
  const destination = uuidParameter('destination', query.get('destination'), 400);
  for (const [name, id] of [
    ['origin', origin],
    ['destination', destination],
  ] as const)
    if (!STOPS.some((stop) => stop.id === id)) throw new Refusal(400, `${name} is not a stop Coachline calls at`);
  const after = Date.parse(query.get('after') ?? '');
  if (!Number.isFinite(after) || !/T/.test(query.get('after') ?? ''))
    throw new Refusal(400, 'after must be a date-time');
  return DEPARTURES.filter(
    (departure) =>
      departure.origin === origin &&
      departure.destination === destination &&
      Date.parse(String(departure.departs_at)) >= after,
  );
}

/** The fields of a booking request (nothing is required by the document; the server needs a departure). */
export function bookingRequest(
  value: unknown,
  unknownStatus = 404,
): { departure: Json; passenger_name: string; seats: number } {
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    throw new Refusal(400, 'a booking is an object');
  const body = value as Json;
  for (const name of Object.keys(body))
    if (!['departure_id', 'passenger_name', 'seats'].includes(name)) throw new Refusal(400, `unknown property ${name}`);
  const { departure_id: id, passenger_name: name = 'Guest', seats = 1 } = body;
  if (typeof name !== 'string' || [...name].length < 1 || [...name].length > 80)
    throw new Refusal(400, 'passenger_name is 1 to 80 characters');
  if (!Number.isInteger(seats) || (seats as number) < 1 || (seats as number) > 6)
    throw new Refusal(400, 'seats is an integer from 1 to 6');
  if (id === undefined) throw new Refusal(400, 'departure_id names the departure to book');
  if (typeof id !== 'string' || !UUID.test(id)) throw new Refusal(400, 'departure_id must be a uuid');
  const departure = DEPARTURES.find((candidate) => candidate.id === id);
  if (!departure) throw new Refusal(unknownStatus, `no departure ${id}`);
  return { departure, passenger_name: name, seats: seats as number };
}
