// Plain node:http plumbing shared by the foreign reference servers. It imports nothing from src/:
// these servers stand for deployments written by third parties from their documents alone.
// Erasable TypeScript only (no parameter properties, no enums), so that bench/foreign.js can load
// it with Node's type stripping.
import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What a handler answers; `body` is sent as is (a string is UTF-8). */
export interface Reply {
  status: number;
  headers?: Record<string, string>;
  body?: string | Buffer;
  contentType?: string;
}

/** Thrown by request readers to answer at once (a refused parameter or body). */
export class Refusal extends Error {
  readonly reply: Reply;
  constructor(reply: Reply) {
    super(`refused with ${reply.status}`);
    this.reply = reply;
  }
}

/** A request as the handlers see it: method, path under the base path, query and raw headers. */
export interface Incoming {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingMessage['headers'];
  /** The origin the client used (`http://127.0.0.1:1234`), for absolute links. */
  origin: string;
  /** The body as UTF-8 text, or undefined beyond the size limit. */
  body(): Promise<string | undefined>;
}

export function jsonReply(status: number, value: unknown, headers: Record<string, string> = {}): Reply {
  return { status, headers, body: JSON.stringify(value), contentType: 'application/json' };
}

const MAX_BODY_BYTES = 256 * 1024;

async function readBody(req: IncomingMessage): Promise<string | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size <= MAX_BODY_BYTES) chunks.push(chunk);
  }
  return size > MAX_BODY_BYTES ? undefined : Buffer.concat(chunks).toString('utf8');
}

/** The JSON value of a body, or undefined when it is not JSON. */
export function parseJson(text: string): { value: unknown } | undefined {
  try {
    return { value: JSON.parse(text) as unknown };
  } catch {
    return undefined;
  }
}

/** True when a Content-Type names application/json (any case, any parameters). */
export function isJsonMediaType(header: string | undefined): boolean {
  return (header ?? '').split(';')[0]!.trim().toLowerCase() === 'application/json';
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const isUuid = (text: unknown): text is string => typeof text === 'string' && UUID.test(text);

/** A version-4-shaped uuid derived from a name: the same name gives the same uuid, so runs repeat. */
export function uuidFor(name: string): string {
  const hex = createHash('sha256').update(name).digest('hex');
  const variant = ((parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(\.\d+)?([Zz]|([+-])(\d{2}):(\d{2}))$/;

/** The instant (ms since the epoch) of an RFC 3339 date-time, any offset, or undefined. */
export function parseDateTime(text: string): number | undefined {
  const match = RFC3339.exec(text);
  if (!match) return undefined;
  const [, year, month, day, hour, minute, second] = match.map<number>(Number);
  if (!isCalendarDate(year!, month!, day!) || hour! > 23 || minute! > 59 || second! > 60) return undefined;
  const ms = Date.parse(text.toUpperCase());
  return Number.isNaN(ms) ? undefined : ms;
}

/** True for an RFC 3339 full-date (`2031-02-28`) that names a real day. */
export function isFullDate(text: unknown): text is string {
  const match = typeof text === 'string' ? /^(\d{4})-(\d{2})-(\d{2})$/.exec(text) : null;
  return match !== null && isCalendarDate(Number(match[1]), Number(match[2]), Number(match[3]));
}

function isCalendarDate(year: number, month: number, day: number): boolean {
  if (month < 1 || month > 12 || day < 1) return false;
  return day <= new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/** A date-time in UTC, `Z`, whole seconds. */
export const utcDateTime = (ms: number): string => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

/** A date-time at a fixed offset of whole hours, with milliseconds (`2031-03-01T20:30:00.000+01:00`). */
export function offsetDateTime(ms: number, hours: number): string {
  const local = new Date(ms + hours * 3_600_000).toISOString().slice(0, -1);
  const sign = hours < 0 ? '-' : '+';
  return `${local}${sign}${String(Math.abs(hours)).padStart(2, '0')}:00`;
}

/** The token of `Authorization: Bearer <token>` (scheme case-insensitive, one or more spaces), if any. */
export function bearerToken(header: string | undefined, { schemeCaseSensitive = false } = {}): string | undefined {
  const match = /^(\S+) +(\S+) *$/.exec(header ?? '');
  if (!match) return undefined;
  const scheme = match[1]!;
  const isBearer = schemeCaseSensitive ? scheme === 'Bearer' : scheme.toLowerCase() === 'bearer';
  return isBearer ? match[2] : undefined;
}

/** The user and password of `Authorization: Basic <base64>`, if any. */
export function basicCredentials(header: string | undefined): { user: string; password: string } | undefined {
  const match = /^basic +([A-Za-z0-9+/]+=*) *$/i.exec(header ?? '');
  if (!match) return undefined;
  const decoded = Buffer.from(match[1]!, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  return colon < 0 ? undefined : { user: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
}

/** The one value of a query parameter; repeated is refused by `refuse`. */
export function single(query: URLSearchParams, name: string, refuse: (detail: string) => Refusal): string | undefined {
  const values = query.getAll(name);
  if (values.length > 1) throw refuse(`Query parameter ${name} is given ${values.length} times`);
  return values[0];
}

/** A path segment decoded, or as sent when its percent-encoding is broken. */
export function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** A decimal integer written in query text (`7`, `-1`), or undefined. */
export function integerText(text: string): number | undefined {
  return /^-?\d{1,15}$/.test(text) ? Number(text) : undefined;
}

export interface Listening {
  /** The base URL clients use: origin plus base path. */
  url: string;
  close(): Promise<void>;
}

/** How a deployment answers: its handler, its own 500, and its 404 for paths outside its base path. */
export interface Deployment {
  basePath: string;
  handle(request: Incoming): Promise<Reply>;
  crash(thrown: unknown): Reply;
  outside(path: string): Reply;
}

/** Serves a deployment on 127.0.0.1, port 0; a thrown Refusal is its reply, anything else thrown its crash. */
export async function listen(deployment: Deployment): Promise<Listening> {
  const { basePath } = deployment;
  const server = createServer((req, res) => {
    const incoming = toIncoming(req, basePath);
    const answer = incoming ? deployment.handle(incoming) : Promise.resolve(deployment.outside(req.url ?? '/'));
    void answer
      .catch((thrown: unknown) => (thrown instanceof Refusal ? thrown.reply : deployment.crash(thrown)))
      .then((reply) => {
        const { status, headers = {}, body = '', contentType } = reply;
        const type = contentType === undefined || body === '' ? {} : { 'content-type': contentType };
        res.writeHead(status, { ...headers, ...type, 'content-length': Buffer.byteLength(body) });
        res.end(req.method === 'HEAD' ? undefined : body);
      });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${basePath}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function toIncoming(req: IncomingMessage, basePath: string): Incoming | undefined {
  const origin = `http://${req.headers.host ?? '127.0.0.1'}`;
  const url = new URL(req.url ?? '/', origin);
  if (url.pathname !== basePath && !url.pathname.startsWith(`${basePath}/`)) return undefined;
  const path = url.pathname.slice(basePath.length) || '/';
  return {
    method: req.method ?? 'GET',
    path,
    query: url.searchParams,
    headers: req.headers,
    origin,
    body: () => readBody(req),
  };
}
