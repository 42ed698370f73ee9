// The Museum's special events: list, create, read, update (PATCH) and delete.
import { isFullDate, isUuid, type Incoming, type Reply } from '../http-kit.js';
import { readJsonObject, optionalString, requiredString } from './body.js';
import type { Museum, SpecialEvent } from './context.js';
import { pageOf, readDate } from './paging.js';

const DAY = 86_400_000;
const DEFAULT_RANGE_DAYS = 7;

export function listSpecialEvents(api: Museum, request: Incoming): Reply {
  const startDate = readDate(api, request, 'startDate') ?? api.dayAfterToday(0);
  const endDate =
    readDate(api, request, 'endDate') ??
    new Date(Date.parse(startDate) + DEFAULT_RANGE_DAYS * DAY).toISOString().slice(0, 10);
  if (endDate < startDate) throw api.badRequest(`endDate ${endDate} is before startDate ${startDate}`);
  const inRange = api.on('events-date-range-ignored')
    ? api.events
    : api.events.filter((event) => event.dates.some((date) => date >= startDate && date <= endDate));
  const ordered = api.variant.eventOrder === 'earliest-date' ? [...inRange].sort(byEarliestDate) : inRange;
  const page = pageOf(api, request, 'events', ordered).map((event) => eventJson(api, event, { listed: true }));
  return api.json(200, api.on('events-wrapped') ? { data: page } : page);
}

export async function createSpecialEvent(api: Museum, request: Incoming): Promise<Reply> {
  const body = await readJsonObject(api, request);
  const fields = readEventFields(api, body, { required: true });
  const event: SpecialEvent = {
    eventId: chooseEventId(api, body.eventId),
    ...(fields as Omit<SpecialEvent, 'eventId'>),
  };
  const stored = { ...event, dates: api.on('dates-truncated') ? event.dates.slice(0, 1) : event.dates };
  if (api.on('price-rounded') && typeof stored.price === 'number') stored.price = Math.round(stored.price);
  if (!api.on('create-ignored')) api.events.push(stored);
  return api.json(api.on('create-event-200') ? 200 : 201, eventJson(api, event));
}

export function getSpecialEvent(api: Museum, id: string): Reply {
  if (!isUuid(id) && api.on('malformed-event-id-500'))
    throw new TypeError(`invalid input syntax for type uuid: "${id}"`);
  const event = findEvent(api, id);
  if (!event && api.on('unknown-event-400')) return api.problem(400, `No special event has the id ${id}`);
  if (!event) return api.problem(404, `No special event has the id ${id}`);
  return api.json(200, eventJson(api, api.on('get-event-returns-latest') ? api.events.at(-1)! : event));
}

export async function updateSpecialEvent(api: Museum, request: Incoming, id: string): Promise<Reply> {
  const event = findEvent(api, id);
  if (!event) return api.problem(404, `No special event has the id ${id}`);
  const fields = readEventFields(api, await readJsonObject(api, request), { required: false });
  const base = api.on('patch-resets-unsent') ? { ...event, dates: [], price: 0 } : event;
  const updated: SpecialEvent = { ...base, ...fields };
  if (!api.on('update-ignored')) Object.assign(event, updated);
  return api.json(200, eventJson(api, updated));
}

export function deleteSpecialEvent(api: Museum, id: string): Reply {
  const event = findEvent(api, id);
  if (!event) return api.problem(404, `No special event has the id ${id}`);
  if (!api.on('delete-does-not-delete')) api.events.splice(api.events.indexOf(event), 1);
  return api.on('delete-200-with-body') ? api.json(200, eventJson(api, event)) : { status: 204 };
}

export function findEvent(api: Museum, id: string): SpecialEvent | undefined {
  if (!isUuid(id)) throw api.malformedId('eventId', id);
  return api.events.find((event) => event.eventId === id);
}

function eventJson(api: Museum, event: SpecialEvent, { listed = false } = {}): unknown {
  const { eventDescription, ...rest } = event;
  return listed && api.on('event-items-description-missing') ? rest : { ...rest, eventDescription };
}

function byEarliestDate(a: SpecialEvent, b: SpecialEvent): number {
  const first = (event: SpecialEvent) => [...event.dates].sort()[0] ?? '9999-12-31';
  return first(a).localeCompare(first(b)) || a.name.localeCompare(b.name);
}

/** The id of a new event: the schema lets a client send one (a uuid), which the variant may keep. */
function chooseEventId(api: Museum, sent: unknown): string {
  if (sent !== undefined && !isUuid(sent)) throw api.badRequest('eventId must be a uuid');
  const free = isUuid(sent) && !api.events.some((event) => event.eventId === sent);
  return api.variant.clientEventId === 'keep' && free ? sent : api.nextEventId();
}

/** The fields of SpecialEventFields present in `body`, checked; with `required`, all five must be there. */
function readEventFields(
  api: Museum,
  body: Record<string, unknown>,
  { required }: { required: boolean },
): Partial<SpecialEvent> {
  const text = (field: string) => (required ? requiredString(api, body, field) : optionalString(api, body, field));
  const name = required && body.name === undefined && api.on('event-missing-name-accepted') ? '' : text('name');
  const fields: Partial<SpecialEvent> = {
    name,
    location: text('location'),
    eventDescription: text('eventDescription'),
  };
  const dates = readDates(api, body.dates);
  const price = readPrice(api, body.price, { patch: !required });
  if (required && (dates === undefined || price === undefined)) throw api.badRequest('dates and price are required');
  Object.assign(fields, { dates, price });
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined));
}

function readDates(api: Museum, value: unknown): string[] | undefined {
  if (value === undefined) return undefined;
  if (isFullDate(value) && api.on('event-dates-not-array')) return [value];
  if (!Array.isArray(value) || !value.every(isFullDate))
    throw api.badRequest('dates must be an array of dates (YYYY-MM-DD)');
  return value;
}

function readPrice(api: Museum, value: unknown, { patch }: { patch: boolean }): number | string | undefined {
  if (value === undefined || (typeof value === 'number' && Number.isFinite(value))) return value;
  if (typeof value === 'string' && !patch && api.on('event-price-string-accepted') && Number.isFinite(Number(value)))
    return Number(value);
  if (typeof value === 'string' && patch && api.on('patch-wrong-type-accepted')) return value;
  throw api.badRequest('price must be a number');
}
