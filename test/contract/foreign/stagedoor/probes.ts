// The careful probe of each Stagedoor fault: what a person reading the document alone would check.
// Each returns the violation it sees, or undefined; every correct deployment passes every probe.
import { expectStatus, expectThat, firstViolation, unknownUuid, type Probe } from '../probe-client.js';
import type { StagedoorFault } from './faults.js';
import {
  BANK,
  BIG_VENUE,
  BOOKABLE,
  CARD,
  EARLY,
  HOLDER,
  LATER,
  pageShape,
  problemOf,
  reserve,
  search,
  unauthenticated,
  walksVenues,
  withReservation,
} from './probe-support.js';

export const STAGEDOOR_PROBES: Record<StagedoorFault, Probe> = {
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
  'page-two-capacity-as-string': async (client) => {
    const { body } = await client.get('/venues', { query: { page: 2 } });
    return expectThat(
      (body?.data ?? []).every((venue: any) => Number.isInteger(venue.capacity)),
      'a capacity that is not an integer on page 2',
    );
  },
  'next-on-last-page': (client) => walksVenues(client, 10),
  'next-loops-to-first': (client) => walksVenues(client, 10),
  'items-repeated-across-pages': (client) => walksVenues(client, 10),
  'page-larger-than-limit': (client) => walksVenues(client, 10),
  'prev-on-first-page': async (client) => {
    const { body } = await client.get('/venues');
    return expectThat(body?.links?.prev === undefined || body?.links?.prev === null, 'page 1 has a prev link');
  },
  'next-drops-limit': (client) => walksVenues(client, 5),
  'page-beyond-last-500': async (client) => {
    const response = await client.get('/venues', { query: { page: 99 } });
    return firstViolation(
      expectStatus(response, 200, 'a page after the last'),
      expectThat(response.body?.data?.length === 0, 'a page after the last has items'),
    );
  },
  'venue-id-missing-accepted': async (client) =>
    expectStatus(
      await client.get('/performances', { query: { starts_after: EARLY } }),
      400,
      'a search without venue_id',
    ),
  'starts-after-missing-accepted': async (client) =>
    expectStatus(
      await client.get('/performances', { query: { venue_id: BIG_VENUE.id } }),
      400,
      'a search without starts_after',
    ),
  'venue-id-malformed-accepted': async (client) =>
    expectStatus(await search(client, { venue_id: 'hall-1' }), 400, 'venue_id=hall-1'),
  'starts-after-malformed-accepted': async (client) =>
    expectStatus(await search(client, { starts_after: 'tomorrow' }), 400, 'starts_after=tomorrow'),
  'offset-refused': async (client) =>
    expectStatus(await search(client, { starts_after: '2031-03-01T20:00:00+02:00' }), 200, 'an offset'),
  'fractional-seconds-refused': async (client) =>
    expectStatus(await search(client, { starts_after: '2031-03-01T20:00:00.5Z' }), 200, 'fractional seconds'),
  'limit-zero-accepted': async (client) =>
    expectStatus(await client.get('/venues', { query: { limit: 0 } }), 400, 'limit=0'),
  'limit-above-max-honoured': async (client) =>
    expectStatus(await client.get('/venues', { query: { limit: 100 } }), 400, 'limit=100'),
  'page-zero-accepted': async (client) =>
    expectStatus(await client.get('/venues', { query: { page: 0 } }), 400, 'page=0'),
  'boolean-filter-loose': async (client) =>
    expectStatus(await search(client, { sold_out: 'yes' }), 400, 'sold_out=yes'),
  'seats-zero-accepted': async (client) =>
    expectStatus(await reserve(client, { performance_id: BOOKABLE.id, seats: 0 }), [400, 422], 'seats 0'),
  'email-unchecked': async (client) =>
    expectStatus(
      await reserve(client, { performance_id: BOOKABLE.id, holder: { name: 'Ana', email: 'ana at home' } }),
      [400, 422],
      'an email without @',
    ),
  'card-number-unchecked': (client) =>
    withReservation(client, async (id) =>
      expectStatus(
        await client.post(`/reservations/${id}/payment`, { ...CARD, card_number: '4111-1111' }),
        [400, 422],
        'card_number 4111-1111',
      ),
    ),
  'create-ignored': (client) =>
    withReservation(client, async (id) =>
      expectStatus(await client.get(`/reservations/${id}`), 200, 'reading a new reservation'),
    ),
  'seats-read-back-as-one': (client) =>
    withReservation(
      client,
      async (id) => {
        const { body } = await client.get(`/reservations/${id}`);
        return expectThat(body?.seats === 3, `3 seats read back as ${body?.seats}`);
      },
      { performance_id: BOOKABLE.id, seats: 3 },
    ),
  'holder-dropped': (client) =>
    withReservation(
      client,
      async (id) => {
        const { body } = await client.get(`/reservations/${id}`);
        return expectThat(
          body?.holder?.email === HOLDER.email && body?.holder?.name === HOLDER.name,
          'the holder is not read back',
        );
      },
      { performance_id: BOOKABLE.id, holder: HOLDER },
    ),
  'cancel-does-not-delete': (client) =>
    withReservation(client, async (id) => {
      await client.send('DELETE', `/reservations/${id}`);
      return expectStatus(await client.get(`/reservations/${id}`), 404, 'reading a cancelled reservation');
    }),
  'cancel-unknown-204': async (client) =>
    expectStatus(
      await client.send('DELETE', `/reservations/${unknownUuid()}`),
      404,
      'cancelling an unknown reservation',
    ),
  'payment-accepted-twice': (client) =>
    withReservation(client, async (id) => {
      await client.post(`/reservations/${id}/payment`, CARD);
      return expectStatus(await client.post(`/reservations/${id}/payment`, CARD), 409, 'paying twice');
    }),
  'payment-after-cancel-accepted': (client) =>
    withReservation(client, async (id) => {
      await client.send('DELETE', `/reservations/${id}`);
      return expectStatus(
        await client.post(`/reservations/${id}/payment`, CARD),
        404,
        'paying a cancelled reservation',
      );
    }),
  'reservation-ids-reused': async (client) => {
    const ids: string[] = [];
    for (let count = 0; count < 30; count++) ids.push((await reserve(client)).body?.id);
    const reads = await Promise.all(ids.map((id) => client.get(`/reservations/${id}`)));
    return firstViolation(
      expectThat(new Set(ids).size === ids.length, 'two reservations got the same id'),
      expectThat(
        reads.every((read, index) => read.body?.id === ids[index]),
        'a reservation no longer reads as itself',
      ),
    );
  },
  'search-ignores-venue': async (client) => {
    const { body } = await search(client, { limit: 50 });
    return expectThat(
      (body?.data ?? []).every((item: any) => item.venue_id === BIG_VENUE.id),
      'a performance of another venue',
    );
  },
  'search-ignores-sold-out': async (client) => {
    const { body } = await search(client, { sold_out: true, limit: 50 });
    const items = body?.data ?? [];
    return expectThat(
      items.length > 0 && items.every((item: any) => item.sold_out === true),
      'sold_out=true lists performances not sold out',
    );
  },
  'search-accessible-inverted': async (client) => {
    const { body } = await search(client, { accessible: true, limit: 50 });
    const items = body?.data ?? [];
    return expectThat(
      items.length > 0 && items.every((item: any) => item.accessible === true),
      'accessible=true lists inaccessible performances',
    );
  },
  'venue-city-filter-ignored': async (client) => {
    const { body } = await client.get('/venues', { query: { city: 'Galway', limit: 50 } });
    const items = body?.data ?? [];
    return expectThat(
      items.length > 0 && items.every((venue: any) => venue.address?.city === 'Galway'),
      'city=Galway lists venues elsewhere',
    );
  },
  'unknown-performance-accepted': async (client) =>
    expectStatus(
      await reserve(client, { performance_id: unknownUuid() }),
      422,
      'a reservation of an unknown performance',
    ),
  'reservation-read-returns-latest': (client) =>
    withReservation(client, async (id) => {
      await reserve(client);
      const { body } = await client.get(`/reservations/${id}`);
      return expectThat(body?.id === id, `reading ${id} gives ${body?.id}`);
    }),
  'performance-read-returns-first': async (client) => {
    const { body } = await client.get(`/performances/${LATER.id}`);
    return expectThat(body?.id === LATER.id, `reading ${LATER.id} gives ${body?.id}`);
  },
  'reservation-performance-swapped': (client) =>
    withReservation(
      client,
      async (id) => {
        const { body } = await client.get(`/reservations/${id}`);
        return expectThat(
          body?.performance_id === LATER.id,
          `a reservation of ${LATER.id} reads as ${body?.performance_id}`,
        );
      },
      { performance_id: LATER.id },
    ),
};
