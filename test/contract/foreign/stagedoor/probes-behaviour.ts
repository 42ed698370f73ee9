// The careful probes of the Stagedoor faults of behaviour (faults-behaviour.ts): pagination,
// negative inputs, state reached and references. Each returns the violation it sees, or undefined.
import { expectStatus, expectThat, firstViolation, unknownUuid, type Probe } from '../probe-client.js';
import {
  BIG_VENUE,
  BOOKABLE,
  CARD,
  EARLY,
  HOLDER,
  LATER,
  reserve,
  search,
  walksVenues,
  withReservation,
} from './probe-support.js';
import type { BEHAVIOUR_FAULTS } from './faults-behaviour.js';

export const BEHAVIOUR_PROBES: Record<(typeof BEHAVIOUR_FAULTS)[number]['name'], Probe> = {
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
