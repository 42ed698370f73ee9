// The careful probes of the Stagedoor faults of the interface surface (faults-surface.ts): auth,
// errors, status codes, headers and envelopes. Each returns the violation it sees, or undefined.
import { expectStatus, expectThat, unknownUuid, type Probe } from '../probe-client.js';
import {
  BANK,
  BOOKABLE,
  CARD,
  pageShape,
  problemOf,
  reserve,
  search,
  unauthenticated,
  withReservation,
} from './probe-support.js';
import type { SURFACE_FAULTS } from './faults-surface.js';

export const SURFACE_PROBES: Record<(typeof SURFACE_FAULTS)[number]['name'], Probe> = {
  'performance-read-unprotected': async (client) =>
    expectStatus(
      await client.get(`/performances/${BOOKABLE.id}`, unauthenticated),
      401,
      'getPerformance without a token',
    ),
  'create-accepts-any-token': async (client) =>
    expectStatus(
      await client.post('/reservations', { performance_id: BOOKABLE.id }, { authorization: 'Bearer not-a-token' }),
      401,
      'createReservation with an unknown token',
    ),
  'payment-unprotected': async (client) =>
    expectStatus(
      await client.post(`/reservations/${unknownUuid()}/payment`, CARD, unauthenticated),
      401,
      'payReservation without a token',
    ),
  'missing-token-403': async (client) =>
    expectStatus(await client.get('/venues', unauthenticated), 401, 'listVenues without a token'),
  'no-www-authenticate': async (client) => {
    const response = await client.get('/venues', unauthenticated);
    return expectThat(
      /^bearer\b/i.test(response.headers.get('www-authenticate') ?? ''),
      'a 401 without a Bearer challenge',
    );
  },
  'bearer-case-sensitive': async (client) =>
    expectStatus(
      await client.get('/venues', { authorization: client.authorization.replace('Bearer', 'bearer') }),
      200,
      'the scheme in lower case',
    ),
  'problem-as-plain-json': async (client) => problemOf(await client.get(`/venues/${unknownUuid()}`)),
  'problem-status-mismatch': async (client) => problemOf(await client.get(`/venues/${unknownUuid()}`)),
  'problem-without-title': async (client) => problemOf(await client.get(`/venues/${unknownUuid()}`)),
  'malformed-json-500': async (client) =>
    expectStatus(await client.send('POST', '/reservations', { rawBody: '{"performance_id": ' }), 400, 'malformed JSON'),
  'malformed-id-500': async (client) =>
    expectStatus(await client.get('/reservations/not-a-uuid'), [400, 404], 'a malformed id'),
  'unknown-reservation-400': async (client) =>
    expectStatus(await client.get(`/reservations/${unknownUuid()}`), 404, 'an unknown reservation'),
  'unknown-performance-404': async (client) =>
    expectStatus(
      await reserve(client, { performance_id: unknownUuid() }),
      422,
      'a reservation of an unknown performance',
    ),
  'bank-payment-500': (client) =>
    withReservation(client, async (id) =>
      expectStatus(await client.post(`/reservations/${id}/payment`, BANK), 201, 'a bank payment'),
    ),
  'create-200': async (client) => expectStatus(await reserve(client), 201, 'createReservation'),
  'payment-200': (client) =>
    withReservation(client, async (id) =>
      expectStatus(await client.post(`/reservations/${id}/payment`, CARD), 201, 'a card payment'),
    ),
  'cancel-200-with-body': (client) =>
    withReservation(client, async (id) =>
      expectStatus(await client.send('DELETE', `/reservations/${id}`), 204, 'cancelReservation'),
    ),
  'location-missing': async (client) =>
    expectThat((await reserve(client)).headers.has('location'), 'a 201 without Location'),
  'location-previous-reservation': async (client) => {
    const created = await reserve(client);
    const location = created.headers.get('location');
    if (!location) return 'a 201 without Location';
    const read = await client.get(new URL(location, created.url).href);
    return expectThat(
      read.status === 200 && read.body?.id === created.body?.id,
      `Location leads to ${read.status} ${read.body?.id}`,
    );
  },
  'ratelimit-missing-on-search': async (client) =>
    expectThat(
      /^\d+$/.test((await search(client)).headers.get('ratelimit-remaining') ?? ''),
      'search without an integer RateLimit-Remaining',
    ),
  'ratelimit-not-integer': async (client) =>
    expectThat(
      /^\d+$/.test((await client.get('/venues')).headers.get('ratelimit-remaining') ?? ''),
      'venues without an integer RateLimit-Remaining',
    ),
  'venues-bare-array': async (client) => pageShape(await client.get('/venues')),
  'venues-links-missing': async (client) => pageShape(await client.get('/venues')),
  'links-self-missing': async (client) => pageShape(await client.get('/venues')),
  'venue-items-city-missing': async (client) => {
    const { body } = await client.get('/venues');
    return expectThat(
      (body?.data ?? []).every((venue: any) => typeof venue.address?.city === 'string'),
      'a venue without a city',
    );
  },
  'performances-data-renamed': async (client) => pageShape(await search(client)),
  'search-items-starts-at-missing': async (client) => {
    const { body } = await search(client);
    return expectThat(
      (body?.data ?? []).every((item: any) => typeof item.starts_at === 'string'),
      'a performance without starts_at',
    );
  },
};
