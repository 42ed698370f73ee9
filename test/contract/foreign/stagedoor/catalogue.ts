// Stagedoor's catalogue: listVenues, getVenue, searchPerformances, getPerformance.
import { isUuid, parseDateTime, single, type Incoming, type Reply } from '../http-kit.js';
import type { Performance, Venue } from './catalogue-data.js';
import type { Stagedoor } from './context.js';
import { pageOf, readPageRequest, type Page } from './paging.js';

export function listVenues(api: Stagedoor, request: Incoming): Reply {
  const wanted = readPageRequest(api, request);
  const city = single(request.query, 'city', (detail) => api.badRequest(detail));
  if (city !== undefined && (city.length < 1 || city.length > 100))
    throw api.badRequest('city must have 1 to 100 characters');
  const matching =
    city === undefined || api.on('venue-city-filter-ignored')
      ? api.venues
      : api.venues.filter((venue) => venue.address.city === city);
  const ordered =
    api.variant.venueOrder === 'by-name' ? [...matching].sort((a, b) => a.name.localeCompare(b.name)) : matching;
  const page = pageOf(api, request, ordered, wanted);
  const data = page.data.map((venue) => venueJson(api, venue, { listedOnPage: page.page }));
  const remaining = api.on('ratelimit-not-integer') ? 'unlimited' : String(api.nextRateLimitRemaining());
  const headers = { ...page.headers, 'ratelimit-remaining': remaining };
  if (api.on('venues-bare-array')) return api.json(200, data, headers);
  if (api.on('venues-links-missing')) return api.json(200, { data }, headers);
  return api.json(200, envelope(api, 'data', data, page), headers);
}

export function getVenue(api: Stagedoor, id: string): Reply {
  if (!isUuid(id)) throw api.malformedId('venueId', id);
  const venue = api.venues.find((candidate) => candidate.id === id);
  if (!venue) return api.problem(404, `No venue has the id ${id}`);
  return api.json(200, venueJson(api, venue));
}

export function searchPerformances(api: Stagedoor, request: Incoming): Reply {
  const venueId = readVenueId(api, request);
  const after = readStartsAfter(api, request);
  const soldOut = readBoolean(api, request, 'sold_out');
  const accessible = readBoolean(api, request, 'accessible');
  const wanted = readPageRequest(api, request);
  const matching = api.performances.filter(
    (performance) =>
      (venueId === undefined || api.on('search-ignores-venue') || performance.venueId === venueId) &&
      (after === undefined || performance.startsAt > after) &&
      (soldOut === undefined || api.on('search-ignores-sold-out') || isSoldOut(performance) === soldOut) &&
      (accessible === undefined || (performance.accessible === accessible) !== api.on('search-accessible-inverted')),
  );
  const ordered = api.variant.performanceOrder === 'latest-first' ? [...matching].reverse() : matching;
  const page = pageOf(api, request, ordered, wanted);
  const data = page.data.map((performance) => performanceJson(api, performance, { searched: true }));
  const headers = api.on('ratelimit-missing-on-search')
    ? page.headers
    : { ...page.headers, 'ratelimit-remaining': String(api.nextRateLimitRemaining()) };
  return api.json(200, envelope(api, api.on('performances-data-renamed') ? 'items' : 'data', data, page), headers);
}

export function getPerformance(api: Stagedoor, id: string): Reply {
  if (!isUuid(id)) throw api.malformedId('performanceId', id);
  let performance = api.performances.find((candidate) => candidate.id === id);
  if (!performance) return api.problem(404, `No performance has the id ${id}`);
  if (api.on('performance-read-returns-first'))
    performance = api.performances.find((candidate) => candidate.venueId === performance!.venueId)!;
  return api.json(200, performanceJson(api, performance));
}

export const isSoldOut = (performance: Performance): boolean => performance.seatsAvailable === 0;

function envelope(api: Stagedoor, key: string, data: unknown[], page: Page<unknown>): Record<string, unknown> {
  const meta = api.variant.extraFields ? { meta: { total: page.total, page: page.page } } : {};
  return { [key]: data, links: page.links, ...meta };
}

function venueJson(api: Stagedoor, venue: Venue, { listedOnPage }: { listedOnPage?: number } = {}): unknown {
  const inList = listedOnPage !== undefined;
  const { city, ...rest } = venue.address;
  const address = inList && api.on('venue-items-city-missing') ? rest : { ...rest, city };
  const capacity =
    inList && listedOnPage > 1 && api.on('page-two-capacity-as-string') ? String(venue.capacity) : venue.capacity;
  return {
    id: venue.id,
    name: venue.name,
    address,
    capacity,
    timezone: venue.timezone,
    ...(api.variant.extraFields ? { _links: { self: `/v2/venues/${venue.id}` } } : {}),
  };
}

export function performanceJson(api: Stagedoor, performance: Performance, { searched = false } = {}): unknown {
  const offset = api.venueOf(performance).utcOffsetHours;
  const startsAt =
    searched && api.on('search-items-starts-at-missing')
      ? {}
      : { starts_at: api.dateTime(performance.startsAt, offset) };
  return {
    id: performance.id,
    venue_id: performance.venueId,
    title: performance.title,
    ...startsAt,
    sold_out: isSoldOut(performance),
    accessible: performance.accessible,
    seats_available: performance.seatsAvailable,
    price: performance.price,
    ...(api.variant.extraFields ? { _links: { venue: `/v2/venues/${performance.venueId}` } } : {}),
  };
}

function readVenueId(api: Stagedoor, request: Incoming): string | undefined {
  const text = single(request.query, 'venue_id', (detail) => api.badRequest(detail));
  if (text === undefined) {
    if (api.on('venue-id-missing-accepted')) return undefined;
    throw api.badRequest('venue_id is required');
  }
  if (!isUuid(text) && !api.on('venue-id-malformed-accepted'))
    throw api.badRequest(`venue_id ${JSON.stringify(text)} is not a uuid`);
  return text;
}

function readStartsAfter(api: Stagedoor, request: Incoming): number | undefined {
  const text = single(request.query, 'starts_after', (detail) => api.badRequest(detail));
  if (text === undefined) {
    if (api.on('starts-after-missing-accepted')) return undefined;
    throw api.badRequest('starts_after is required');
  }
  const refused =
    (api.on('offset-refused') && !/[zZ]$/.test(text)) || (api.on('fractional-seconds-refused') && text.includes('.'));
  const instant = refused ? undefined : parseDateTime(text);
  if (instant === undefined && api.on('starts-after-malformed-accepted')) return Date.now();
  if (instant === undefined) throw api.badRequest(`starts_after ${JSON.stringify(text)} is not an RFC 3339 date-time`);
  return instant;
}

function readBoolean(api: Stagedoor, request: Incoming, name: string): boolean | undefined {
  const text = single(request.query, name, (detail) => api.badRequest(detail));
  if (text === undefined || text === 'true' || text === 'false')
    return text === undefined ? undefined : text === 'true';
  if (api.on('boolean-filter-loose')) return true;
  throw api.badRequest(`${name} must be true or false, got ${JSON.stringify(text)}`);
}
