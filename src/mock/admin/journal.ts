import type { OutgoingMessage } from 'node:http';
import { Redactor } from '../../core/redact.js';
import type { Violation } from '../respond/violation.js';

/** One exchange as the admin journal shows it. */
export interface JournalEntry {
  id: number;
  time: string;
  method: string;
  url: string;
  operationId: string | undefined;
  status: number;
  durationMs: number;
  /** The delay and fault chaos injected, when it did (status 0: no answer was written). */
  chaos?: { cause: string; delayMs: number; fault?: string };
  request: { headers: Record<string, unknown>; body: string };
  response: { headers: Record<string, unknown>; body: string };
  /** Proxy mode: how the exchange breaks the document (empty when it does not). */
  violations?: Violation[];
}

/** What the mock records per exchange (bodies are clipped when recorded; redaction happens when read). */
export interface JournalRecord {
  time: number;
  method: string;
  url: string;
  operationId: string | undefined;
  status: number;
  durationMs: number;
  chaos?: { cause: string; delayMs: number; fault?: string } | undefined;
  requestHeaders: Record<string, string | string[] | undefined>;
  requestBody: string;
  /** The answer's headers as `responseHeaderList` reads them. */
  responseHeaders: HeaderList;
  responseBody: unknown;
  /** Proxy mode: the exchange's violations, already capped and redacted. */
  violations?: Violation[];
}

/** Headers as a flat list, `[name, value, name, value, …]`, names in lower case. */
export type HeaderList = (string | number | readonly string[] | undefined)[];

/**
 * The headers of an answer, as a flat list: one array, where `getHeaders()` makes a dictionary-mode
 * object, which is slower to build and to turn into the journal's JSON text.
 */
export function responseHeaderList(response: Pick<OutgoingMessage, 'getHeaderNames' | 'getHeader'>): HeaderList {
  const names = response.getHeaderNames();
  const list: HeaderList = new Array<HeaderList[number]>(names.length * 2);
  for (let index = 0; index < names.length; index += 1) {
    list[2 * index] = names[index];
    list[2 * index + 1] = response.getHeader(names[index]!);
  }
  return list;
}

function headersOf(list: HeaderList): Record<string, unknown> {
  const headers: Record<string, unknown> = {};
  for (let index = 0; index < list.length; index += 2) headers[list[index] as string] = list[index + 1];
  return headers;
}

export interface JournalLimits {
  /** Most exchanges kept. */
  entries: number;
  /** Most memory the kept exchanges may take, estimated from their text. */
  bytes: number;
}

/** Bodies are kept up to this many characters. */
export const BODY_PREVIEW = 8 * 1024;
/** What an entry costs besides its characters: the record object, its fields, the headers' objects. */
const ENTRY_OVERHEAD_BYTES = 512;
/** What each header costs besides its characters: its property, its strings' headers. */
const HEADER_OVERHEAD_BYTES = 64;

/** A record as the journal keeps it: its bodies clipped, its id given. */
type KeptRecord = JournalRecord & { id: number; requestBody: string; responseBody: string };

/**
 * The last exchanges, oldest first, bounded by count and by bytes: the oldest go first when either
 * bound is reached, and a body is kept only up to a preview, so no response size can grow it.
 *
 * A record is kept as it is given: the caller hands over objects it no longer changes (observe
 * gives Node's headers of the request and a header list made for the record). Nothing is copied
 * or serialised per exchange; an entry is written out only when the admin API reads it. Under
 * load an entry lives a few milliseconds, so most die in the young generation; making each one
 * a text cost about 1.5 µs a request, a tenth of a create (docs/decisions/hot-path.md).
 */
export class Journal {
  readonly #limits: JournalLimits;
  readonly #redactor: Redactor;
  /** The ring: `#count` records from `#head` on, oldest first. */
  readonly #records: (KeptRecord | undefined)[];
  readonly #sizes: Float64Array;
  #head = 0;
  #count = 0;
  #bytes = 0;
  #nextId = 1;

  constructor(limits: JournalLimits, redactor = new Redactor({ secrets: [] })) {
    this.#limits = { entries: Math.max(0, limits.entries), bytes: Math.max(0, limits.bytes) };
    this.#redactor = redactor;
    this.#records = new Array<KeptRecord | undefined>(this.#limits.entries).fill(undefined);
    this.#sizes = new Float64Array(this.#limits.entries);
  }

  /** Memory the kept entries take, as estimated (for tests and the health view). */
  get bytes(): number {
    return this.#bytes;
  }

  get size(): number {
    return this.#count;
  }

  record(record: JournalRecord): void {
    const id = this.#nextId++;
    const slots = this.#limits.entries;
    if (slots === 0) return;
    const kept = record as KeptRecord;
    kept.id = id;
    kept.requestBody = clip(record.requestBody);
    kept.responseBody = clip(record.responseBody);
    const bytes = sizeOf(kept);
    if (bytes > this.#limits.bytes) return;
    while (this.#count > 0 && (this.#count === slots || this.#bytes + bytes > this.#limits.bytes)) this.#dropOldest();
    const slot = (this.#head + this.#count) % slots;
    this.#records[slot] = kept;
    this.#sizes[slot] = bytes;
    this.#count += 1;
    this.#bytes += bytes;
  }

  /** The most recent `limit` exchanges, oldest first, with credentials redacted. */
  recent(limit = this.#limits.entries): JournalEntry[] {
    const entries: JournalEntry[] = [];
    for (let offset = this.#count - Math.min(limit, this.#count); offset < this.#count; offset += 1) {
      entries.push(this.#present(this.#records[(this.#head + offset) % this.#limits.entries]!));
    }
    return entries;
  }

  clear(): void {
    this.#records.fill(undefined);
    this.#head = 0;
    this.#count = 0;
    this.#bytes = 0;
  }

  #dropOldest(): void {
    this.#bytes -= this.#sizes[this.#head]!;
    this.#records[this.#head] = undefined;
    this.#head = (this.#head + 1) % this.#limits.entries;
    this.#count -= 1;
  }

  #present(record: KeptRecord): JournalEntry {
    const redactor = this.#redactor;
    return {
      id: record.id,
      time: new Date(record.time).toISOString(),
      method: record.method,
      url: redactor.url(record.url),
      operationId: record.operationId,
      status: record.status,
      durationMs: record.durationMs,
      ...(record.chaos ? { chaos: record.chaos } : {}),
      request: { headers: redactor.headers(record.requestHeaders), body: redactor.text(record.requestBody) },
      response: {
        headers: redactor.headers(headersOf(record.responseHeaders)),
        body: redactor.text(record.responseBody),
      },
      ...(record.violations ? { violations: record.violations } : {}),
    };
  }
}

/**
 * A body as the journal keeps it: text up to the preview length. A longer string is copied, not
 * sliced: V8 may keep a slice's whole parent string alive, which is exactly what must not happen.
 */
function clip(body: unknown): string {
  if (body === undefined || body === null) return '';
  if (Buffer.isBuffer(body)) return `<${body.length} bytes>`;
  const text = typeof body === 'string' ? body : (JSON.stringify(body) ?? '');
  if (text.length <= BODY_PREVIEW) return text;
  const head = Buffer.from(text.slice(0, BODY_PREVIEW), 'utf8').toString('utf8');
  return `${head}… (${text.length} characters)`;
}

/**
 * What an entry is estimated to cost: its characters (the URL, the headers, the bodies and the
 * violations as JSON, rare enough to write out), two bytes each, and the objects around them.
 */
function sizeOf(record: KeptRecord): number {
  let characters = record.url.length + record.requestBody.length + record.responseBody.length;
  let headers = 0;
  const requestHeaders = record.requestHeaders;
  for (const name in requestHeaders) {
    characters += name.length + valueLength(requestHeaders[name]);
    headers += 1;
  }
  const list = record.responseHeaders;
  for (let index = 0; index < list.length; index += 2)
    characters += String(list[index]).length + valueLength(list[index + 1]);
  headers += list.length / 2;
  if (record.chaos) characters += JSON.stringify(record.chaos).length;
  if (record.violations) characters += JSON.stringify(record.violations).length;
  return ENTRY_OVERHEAD_BYTES + headers * HEADER_OVERHEAD_BYTES + 2 * characters;
}

function valueLength(value: string | number | readonly string[] | undefined): number {
  if (typeof value === 'string') return value.length;
  if (Array.isArray(value)) return (value as readonly string[]).reduce((sum, item) => sum + item.length + 1, 0);
  return value === undefined ? 0 : String(value).length;
}
