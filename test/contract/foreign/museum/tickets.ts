// The Museum's tickets: buyMuseumTickets and getTicketCode (a PNG that looks like a QR code).
import { createHash } from 'node:crypto';
import { crc32, deflateSync } from 'node:zlib';
import { isFullDate, isUuid, type Incoming, type Reply } from '../http-kit.js';
import { optionalString, readJsonObject, requiredString } from './body.js';
import type { Museum, Ticket } from './context.js';

const TICKET_TYPES = ['event', 'general'];
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export async function buyMuseumTickets(api: Museum, request: Incoming): Promise<Reply> {
  const body = await readJsonObject(api, request);
  const ticketType = requiredString(api, body, 'ticketType');
  if (!TICKET_TYPES.includes(ticketType) && !api.on('ticket-type-unchecked'))
    throw api.badRequest('ticketType must be event or general');
  const ticketDate = requiredString(api, body, 'ticketDate');
  if (!isFullDate(ticketDate) && !api.on('ticket-bad-date-accepted'))
    throw api.badRequest('ticketDate must be a date (YYYY-MM-DD)');
  const email = optionalString(api, body, 'email');
  if (email !== undefined && !EMAIL.test(email)) throw api.badRequest('email must be an email address');
  if (body.ticketId !== undefined && !isUuid(body.ticketId)) throw api.badRequest('ticketId must be a uuid');
  const eventId = readEventId(api, body.eventId, ticketType);
  const ticketId = api.nextTicketId();
  const ticket: Ticket = {
    ticketId,
    ticketDate,
    ticketType,
    ...(eventId === undefined ? {} : { eventId }),
    ...(email === undefined ? {} : { email }),
    confirmationCode: `ticket-${ticketType}-${ticketId.slice(0, 6)}-${ticketId.slice(-5)}`,
  };
  api.tickets.set(ticketId, ticket);
  return api.json(api.on('buy-tickets-200') ? 200 : 201, confirmationJson(api, ticket));
}

export function getTicketCode(api: Museum, id: string): Reply {
  if (!isUuid(id)) throw api.malformedId('ticketId', id);
  if (!api.tickets.has(id) && !api.on('qr-unknown-ticket-200')) return api.problem(404, `No ticket has the id ${id}`);
  const image = qrLikePng(id, api.variant.qrPixels);
  if (api.on('qr-as-json')) return api.json(200, { qr: image.toString('base64') });
  return { status: 200, body: image, contentType: 'image/png' };
}

/** The eventId of a ticket: required for event tickets, and it must name an event (404 otherwise). */
function readEventId(api: Museum, value: unknown, ticketType: string): string | undefined {
  if (value === undefined) {
    if (ticketType === 'event') throw api.badRequest('eventId is required for event tickets');
    return undefined;
  }
  if (!isUuid(value)) throw api.badRequest('eventId must be a uuid');
  const known = api.events.some((event) => event.eventId === value);
  if (!known && !api.on('ticket-unknown-event-accepted')) throw api.notFound(`No special event has the id ${value}`);
  if (api.on('ticket-event-swapped')) return api.events.find((event) => event.eventId !== value)?.eventId;
  return value;
}

function confirmationJson(api: Museum, ticket: Ticket): unknown {
  const { email: _email, confirmationCode, ...shown } = ticket;
  const event =
    ticket.eventId === undefined ? undefined : api.events.find((candidate) => candidate.eventId === ticket.eventId);
  const kind = ticket.ticketType === 'event' ? 'special event' : 'general entry';
  return {
    message: `Museum ${kind} ticket purchased`,
    ...shown,
    ...(api.on('confirmation-code-missing') ? {} : { confirmationCode }),
    ...(api.variant.extraFields && event ? { eventName: event.name } : {}),
  };
}

/** A valid greyscale PNG of `pixels` x `pixels` whose black and white cells derive from `text`. */
function qrLikePng(text: string, pixels: number): Buffer {
  const cells = 29;
  const bits = createHash('sha512').update(text).digest();
  const rows = Array.from({ length: pixels }, (_, y) => {
    const row = Buffer.alloc(pixels + 1);
    for (let x = 0; x < pixels; x++) {
      const cell = Math.floor((y * cells) / pixels) * cells + Math.floor((x * cells) / pixels);
      row[x + 1] = (bits[cell % bits.length]! >> (cell % 8)) & 1 ? 0 : 255;
    }
    return row;
  });
  const header = Buffer.alloc(13);
  header.writeUInt32BE(pixels, 0);
  header.writeUInt32BE(pixels, 4);
  header.set([8, 0, 0, 0, 0], 8);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.concat(rows))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const typed = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(typed));
  return Buffer.concat([length, typed, crc]);
}
