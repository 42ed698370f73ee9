// What the Stagedoor probes share: the data every deployment starts with, and small request helpers.
import {
  expectStatus,
  expectThat,
  firstViolation,
  type ProbeClient,
  type ProbeResponse,
  type Verdict,
} from '../probe-client.js';
import { seedPerformances, seedVenues, VENUE_COUNT } from './catalogue-data.js';

const VENUES = seedVenues();
const PERFORMANCES = seedPerformances(VENUES);
/** The venue with three pages of performances, and one of its bookable performances. */
export const BIG_VENUE = VENUES[0]!;
export const BOOKABLE = PERFORMANCES.find(
  (performance) => performance.venueId === BIG_VENUE.id && performance.seatsAvailable > 0,
)!;
export const LATER = PERFORMANCES.filter((performance) => performance.venueId === BIG_VENUE.id)[5]!;
export const EARLY = '2031-01-01T00:00:00Z';
export const CARD = { method: 'card', card_number: '4111111111111111', expiry_month: 4, expiry_year: 2030, cvc: '123' };
export const BANK = { method: 'bank_account', iban: 'PT50000201231234567890154', account_holder: 'Ana Lima' };
export const HOLDER = { name: 'Ana Lima', email: 'ana@example.org' };

export const search = (client: ProbeClient, query: Record<string, string | number | boolean> = {}) =>
  client.get('/performances', { query: { venue_id: BIG_VENUE.id, starts_after: EARLY, ...query } });

export async function reserve(
  client: ProbeClient,
  body: unknown = { performance_id: BOOKABLE.id },
): Promise<ProbeResponse> {
  return client.post('/reservations', body);
}

/** A new reservation's id, or the violation that prevented it. */
export async function newReservation(
  client: ProbeClient,
  body?: unknown,
): Promise<{ id: string } | { violation: string }> {
  const created = await reserve(client, body);
  if (created.status !== 201 || typeof created.body?.id !== 'string')
    return { violation: `createReservation answered ${created.status}` };
  return { id: created.body.id as string };
}

/** Runs `then` with a new reservation's id. */
export async function withReservation(
  client: ProbeClient,
  then: (id: string) => Promise<Verdict>,
  body?: unknown,
): Promise<Verdict> {
  const created = await newReservation(client, body);
  return 'violation' in created ? created.violation : then(created.id);
}

/** The page shape the document gives every list: {data: [...], links: {self, next?, prev?}}. */
export function pageShape(response: ProbeResponse): Verdict {
  const { body } = response;
  return firstViolation(
    expectStatus(response, 200, 'list'),
    expectThat(Array.isArray(body?.data), 'the list has no `data` array'),
    expectThat(typeof body?.links === 'object' && body.links !== null, 'the list has no `links` object'),
    expectThat(typeof body?.links?.self === 'string', 'the page links have no `self`'),
  );
}

/** Follows `next` from page 1 of `path` with `limit`, at most `maxPages` pages: the ids seen, page by page. */
export async function walk(
  client: ProbeClient,
  path: string,
  limit: number,
  maxPages = 12,
): Promise<{ pages: string[][]; ended: boolean }> {
  const pages: string[][] = [];
  let response = await client.get(path, { query: { limit } });
  for (let count = 0; count < maxPages; count++) {
    pages.push(((response.body?.data ?? []) as { id: string }[]).map((item) => item.id));
    const next = response.body?.links?.next;
    if (next === undefined || next === null) return { pages, ended: true };
    response = await client.get(new URL(next as string, response.url).href);
  }
  return { pages, ended: false };
}

/** Every venue once, in pages of at most `limit`, and the walk ends. */
export async function walksVenues(client: ProbeClient, limit: number): Promise<Verdict> {
  const { pages, ended } = await walk(client, '/venues', limit);
  const ids = pages.flat();
  return firstViolation(
    expectThat(ended, `following next from page 1 (limit ${limit}) never ends`),
    expectThat(
      pages.every((page) => page.length <= limit),
      `a page holds more than limit=${limit} items`,
    ),
    expectThat(new Set(ids).size === ids.length, 'an item is listed on two pages'),
    expectThat(ids.length === VENUE_COUNT, `following next visits ${ids.length} venues, not ${VENUE_COUNT}`),
    expectThat(pages.at(-1)!.length > 0, 'the last page that next leads to is empty'),
  );
}

export const unauthenticated = { authorization: null };
export const problemOf = (response: ProbeResponse): Verdict =>
  firstViolation(
    expectThat(response.mediaType === 'application/problem+json', `an error is ${response.mediaType}`),
    expectThat(
      response.body?.status === response.status,
      `a problem says status ${response.body?.status} on a ${response.status}`,
    ),
    expectThat(typeof response.body?.title === 'string', 'a problem has no title'),
  );
