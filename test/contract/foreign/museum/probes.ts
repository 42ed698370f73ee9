// The careful probe of each Museum fault: what a person reading the document alone would check.
// Each returns the violation it sees, or undefined; every correct deployment passes every probe.
import { uuidFor } from '../http-kit.js';
import {
  expectStatus,
  expectThat,
  firstViolation,
  unknownUuid,
  type Probe,
  type ProbeClient,
  type ProbeResponse,
  type Verdict,
} from '../probe-client.js';
import type { MuseumFault } from './faults.js';

const DAY = 86_400_000;
const daysFromToday = (days: number): string => new Date(Date.now() + days * DAY).toISOString().slice(0, 10);
/** The first event the deployments start with (dates 1 and 5 days from today), and the third. */
const FIRST_SEEDED = uuidFor('museum seeded event 0');
const THIRD_SEEDED = uuidFor('museum seeded event 2');
const EVENT = {
  name: 'Probe Lecture',
  location: 'Room 4',
  eventDescription: 'A talk about probes.',
  dates: ['2031-05-01', '2031-05-08'],
  price: 25.5,
};
const GENERAL_TICKET = { ticketType: 'general', ticketDate: '2031-05-01', email: 'visitor@example.org' };
const HH_MM = /^([01]\d|2[0-3]):?([0-5]\d)$/;

const unauthenticated = { authorization: null };

/** Runs `then` with a new event's id, or answers why it could not be created. */
async function withEvent(
  client: ProbeClient,
  then: (id: string) => Promise<Verdict>,
  body: unknown = EVENT,
): Promise<Verdict> {
  const created = await client.post('/special-events', body);
  if (created.status !== 201 || typeof created.body?.eventId !== 'string')
    return `createSpecialEvent answered ${created.status}`;
  return then(created.body.eventId as string);
}

async function readBack(client: ProbeClient, id: string, check: (event: any) => Verdict): Promise<Verdict> {
  const read = await client.get(`/special-events/${id}`);
  return firstViolation(expectStatus(read, 200, 'reading the event back'), check(read.body));
}

const errorBody = (response: ProbeResponse): Verdict =>
  firstViolation(
    expectThat(response.mediaType === 'application/problem+json', `an error is ${response.mediaType}`),
    expectThat(
      typeof response.body === 'object' && typeof response.body?.title === 'string',
      'an error body is not an Error object',
    ),
  );

const dates = (response: ProbeResponse): string[] =>
  ((response.body ?? []) as { date: string }[]).map((day) => day.date);
const eventIds = (response: ProbeResponse): string[] =>
  ((response.body ?? []) as { eventId: string }[]).map((event) => event.eventId);

async function pagesDisjoint(
  client: ProbeClient,
  path: string,
  query: Record<string, string | number>,
  ids: (r: ProbeResponse) => string[],
): Promise<Verdict> {
  const first = ids(await client.get(path, { query: { ...query, page: 1, limit: 5 } }));
  const second = ids(await client.get(path, { query: { ...query, page: 2, limit: 5 } }));
  return expectThat(second.length > 0 && second.every((id) => !first.includes(id)), 'page 2 repeats page 1');
}

export const MUSEUM_PROBES: Record<MuseumFault, Probe> = {
  'delete-unauthenticated': async (client) =>
    expectStatus(
      await client.send('DELETE', `/special-events/${unknownUuid()}`, unauthenticated),
      401,
      'a delete without credentials',
    ),
  'create-event-unauthenticated': async (client) =>
    expectStatus(await client.post('/special-events', EVENT, unauthenticated), 401, 'a create without credentials'),
  'any-password': async (client) =>
    expectStatus(
      await client.get('/museum-hours', { authorization: `Basic ${Buffer.from('kennel:wrong').toString('base64')}` }),
      401,
      'a wrong password',
    ),
  'no-basic-challenge': async (client) => {
    const response = await client.get('/museum-hours', unauthenticated);
    return expectThat(
      /^basic\b/i.test(response.headers.get('www-authenticate') ?? ''),
      'a 401 without a Basic challenge',
    );
  },
  'create-event-200': async (client) =>
    expectStatus(await client.post('/special-events', EVENT), 201, 'createSpecialEvent'),
  'buy-tickets-200': async (client) =>
    expectStatus(await client.post('/tickets', GENERAL_TICKET), 201, 'buyMuseumTickets'),
  'delete-200-with-body': (client) =>
    withEvent(client, async (id) =>
      expectStatus(await client.send('DELETE', `/special-events/${id}`), 204, 'deleteSpecialEvent'),
    ),
  'problem-as-plain-json': async (client) => errorBody(await client.get(`/special-events/${unknownUuid()}`)),
  'malformed-json-500': async (client) =>
    expectStatus(await client.send('POST', '/special-events', { rawBody: '{"name": ' }), 400, 'malformed JSON'),
  'unknown-event-400': async (client) =>
    expectStatus(await client.get(`/special-events/${unknownUuid()}`), 404, 'an unknown event'),
  'malformed-event-id-500': async (client) =>
    expectStatus(await client.get('/special-events/not-a-uuid'), [400, 404], 'a malformed id'),
  'error-body-string': async (client) => errorBody(await client.get(`/special-events/${unknownUuid()}`)),
  'create-ignored': (client) => withEvent(client, (id) => readBack(client, id, () => undefined)),
  'update-ignored': (client) =>
    withEvent(client, async (id) => {
      await client.send('PATCH', `/special-events/${id}`, { body: { location: 'Roof Terrace' } });
      return readBack(client, id, (event) =>
        expectThat(event?.location === 'Roof Terrace', 'the update is not read back'),
      );
    }),
  'patch-resets-unsent': (client) =>
    withEvent(client, async (id) => {
      await client.send('PATCH', `/special-events/${id}`, { body: { location: 'Roof Terrace' } });
      return readBack(client, id, (event) =>
        expectThat(
          event?.price === EVENT.price && event?.dates?.length === 2,
          'fields the update did not send changed',
        ),
      );
    }),
  'delete-does-not-delete': (client) =>
    withEvent(client, async (id) => {
      await client.send('DELETE', `/special-events/${id}`);
      return expectStatus(await client.get(`/special-events/${id}`), 404, 'reading a deleted event');
    }),
  'price-rounded': (client) =>
    withEvent(client, (id) =>
      readBack(client, id, (event) => expectThat(event?.price === 25.5, `price 25.5 reads back as ${event?.price}`)),
    ),
  'dates-truncated': (client) =>
    withEvent(client, (id) =>
      readBack(client, id, (event) =>
        expectThat(JSON.stringify(event?.dates) === JSON.stringify(EVENT.dates), `dates read back as ${event?.dates}`),
      ),
    ),
  'ticket-unknown-event-accepted': async (client) =>
    expectStatus(
      await client.post('/tickets', { ...GENERAL_TICKET, ticketType: 'event', eventId: unknownUuid() }),
      404,
      'a ticket for an unknown event',
    ),
  'ticket-event-swapped': async (client) => {
    const { body } = await client.post('/tickets', { ...GENERAL_TICKET, ticketType: 'event', eventId: THIRD_SEEDED });
    return expectThat(body?.eventId === THIRD_SEEDED, `a ticket for ${THIRD_SEEDED} names ${body?.eventId}`);
  },
  'get-event-returns-latest': async (client) => {
    await client.post('/special-events', EVENT);
    return readBack(client, FIRST_SEEDED, (event) =>
      expectThat(event?.eventId === FIRST_SEEDED, `reading ${FIRST_SEEDED} gives ${event?.eventId}`),
    );
  },
  'qr-unknown-ticket-200': async (client) =>
    expectStatus(await client.get(`/tickets/${unknownUuid()}/qr`), 404, 'the QR code of an unknown ticket'),
  'events-date-range-ignored': async (client) => {
    const [startDate, endDate] = [daysFromToday(1), daysFromToday(3)];
    const { body } = await client.get('/special-events', { query: { startDate, endDate } });
    const inRange = (event: any) => (event.dates as string[]).some((date) => date >= startDate && date <= endDate);
    return expectThat(
      Array.isArray(body) && body.length > 0 && body.every(inRange),
      'an event outside startDate..endDate is listed',
    );
  },
  'hours-start-date-ignored': async (client) => {
    const startDate = daysFromToday(20);
    const listed = dates(await client.get('/museum-hours', { query: { startDate } }));
    return expectThat(
      listed.length > 0 && listed.every((date) => date >= startDate),
      `hours from ${startDate} start at ${listed[0]}`,
    );
  },
  'qr-as-json': async (client) => {
    const ticket = await client.post('/tickets', GENERAL_TICKET);
    const image = await client.get(`/tickets/${ticket.body?.ticketId}/qr`);
    return firstViolation(
      expectStatus(image, 200, 'the QR code of a new ticket'),
      expectThat(image.mediaType === 'image/png', `the QR code is ${image.mediaType}`),
    );
  },
  'events-wrapped': async (client) =>
    expectThat(Array.isArray((await client.get('/special-events')).body), 'the event list is not an array'),
  'event-items-description-missing': async (client) => {
    const { body } = await client.get('/special-events');
    return expectThat(
      Array.isArray(body) && body.every((event: any) => typeof event.eventDescription === 'string'),
      'a listed event has no eventDescription',
    );
  },
  'hours-time-12h': async (client) => {
    const { body } = await client.get('/museum-hours');
    return expectThat(
      (body ?? []).every((day: any) => HH_MM.test(day.timeOpen) && HH_MM.test(day.timeClose)),
      'a time is not HH:mm',
    );
  },
  'confirmation-code-missing': async (client) =>
    expectThat(
      typeof (await client.post('/tickets', GENERAL_TICKET)).body?.confirmationCode === 'string',
      'no confirmationCode',
    ),
  'hours-limit-ignored': async (client) => {
    const listed = dates(await client.get('/museum-hours', { query: { limit: 5 } }));
    return expectThat(listed.length === 5, `limit=5 lists ${listed.length} days`);
  },
  'hours-default-limit-7': async (client) => {
    const listed = dates(await client.get('/museum-hours'));
    return expectThat(listed.length === 10, `the default page lists ${listed.length} days, not 10`);
  },
  'hours-page-ignored': (client) => pagesDisjoint(client, '/museum-hours', {}, dates),
  'hours-page-larger-than-limit': async (client) => {
    const listed = dates(await client.get('/museum-hours', { query: { limit: 5 } }));
    return expectThat(listed.length === 5, `limit=5 lists ${listed.length} days`);
  },
  'events-page-ignored': (client) =>
    pagesDisjoint(client, '/special-events', { startDate: daysFromToday(0), endDate: daysFromToday(60) }, eventIds),
  'hours-limit-above-max-honoured': async (client) =>
    expectStatus(await client.get('/museum-hours', { query: { limit: 60 } }), 400, 'limit=60'),
  'hours-bad-date-accepted': async (client) =>
    expectStatus(await client.get('/museum-hours', { query: { startDate: 'next-week' } }), 400, 'startDate=next-week'),
  'hours-limit-non-integer-accepted': async (client) =>
    expectStatus(await client.get('/museum-hours', { query: { limit: 'abc' } }), 400, 'limit=abc'),
  'event-missing-name-accepted': async (client) => {
    const { name: _name, ...nameless } = EVENT;
    return expectStatus(await client.post('/special-events', nameless), 400, 'an event without a name');
  },
  'event-price-string-accepted': async (client) =>
    expectStatus(await client.post('/special-events', { ...EVENT, price: '25' }), 400, 'price "25"'),
  'event-dates-not-array': async (client) =>
    expectStatus(await client.post('/special-events', { ...EVENT, dates: '2031-05-01' }), 400, 'dates "2031-05-01"'),
  'ticket-bad-date-accepted': async (client) =>
    expectStatus(
      await client.post('/tickets', { ...GENERAL_TICKET, ticketDate: '2031-02-30' }),
      400,
      'ticketDate 2031-02-30',
    ),
  'ticket-type-unchecked': async (client) =>
    expectStatus(await client.post('/tickets', { ...GENERAL_TICKET, ticketType: 'vip' }), 400, 'ticketType vip'),
  'patch-wrong-type-accepted': (client) =>
    withEvent(client, async (id) =>
      expectStatus(
        await client.send('PATCH', `/special-events/${id}`, { body: { price: 'free' } }),
        400,
        'price "free"',
      ),
    ),
};
