import type { OutgoingMessage } from 'node:http';
import { Redactor } from '../../core/redact.js';
import { TextRing } from './text-ring.js';
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
/** What an entry costs besides its text: the record object, its fields, the headers' objects. */
const ENTRY_OVERHEAD_BYTES = 512;

/**
 * The last exchanges, oldest first, bounded by count and by bytes: the oldest go first when either
 * bound is reached, and a body is kept only up to a preview, so no response size can grow it. Each
 * record is kept as JSON text in a `TextRing`, outside the JavaScript heap (see there why).
 */
export class Journal {
  readonly #limits: JournalLimits;
  readonly #redactor: Redactor;
  readonly #texts: TextRing;
  /** By the ring's slot: the entry's id, estimated bytes and numbers (kept as numbers: cheaper than text). */
  readonly #ids: Float64Array;
  readonly #sizes: Float64Array;
  readonly #times: Float64Array;
  readonly #statuses: Float64Array;
  readonly #durations: Float64Array;
  #bytes = 0;
  #nextId = 1;

  constructor(limits: JournalLimits, redactor = new Redactor({ secrets: [] })) {
    this.#limits = { entries: Math.max(0, limits.entries), bytes: Math.max(0, limits.bytes) };
    this.#redactor = redactor;
    this.#texts = new TextRing(this.#limits.entries);
    this.#ids = new Float64Array(this.#limits.entries);
    this.#sizes = new Float64Array(this.#limits.entries);
    this.#times = new Float64Array(this.#limits.entries);
    this.#statuses = new Float64Array(this.#limits.entries);
    this.#durations = new Float64Array(this.#limits.entries);
  }

  /** Memory the kept entries take, as estimated (for tests and the health view). */
  get bytes(): number {
    return this.#bytes;
  }

  get size(): number {
    return this.#texts.size;
  }

  record(record: JournalRecord): void {
    const id = this.#nextId++;
    if (this.#limits.entries === 0) return;
    record.requestBody = clip(record.requestBody);
    record.responseBody = clip(record.responseBody);
    const text = textOf(record);
    const bytes = sizeOf(text);
    if (bytes > this.#limits.bytes) return;
    while (this.size > 0 && (this.#texts.full || this.#bytes + bytes > this.#limits.bytes)) this.#dropOldest();
    const slot = this.#texts.push(text);
    this.#ids[slot] = id;
    this.#sizes[slot] = bytes;
    this.#times[slot] = record.time;
    this.#statuses[slot] = record.status;
    this.#durations[slot] = record.durationMs;
    this.#bytes += bytes;
  }

  /** The most recent `limit` exchanges, oldest first, with credentials redacted. */
  recent(limit = this.#limits.entries): JournalEntry[] {
    const count = this.size;
    const entries: JournalEntry[] = [];
    for (let offset = count - Math.min(limit, count); offset < count; offset += 1) {
      const slot = this.#texts.slotAt(offset);
      const record = recordOf(this.#texts.textAt(offset));
      entries.push(
        this.#present({
          ...record,
          id: this.#ids[slot]!,
          time: this.#times[slot]!,
          status: this.#statuses[slot]!,
          durationMs: this.#durations[slot]!,
        }),
      );
    }
    return entries;
  }

  clear(): void {
    this.#texts.clear();
    this.#bytes = 0;
  }

  #dropOldest(): void {
    this.#bytes -= this.#sizes[this.#texts.slotAt(0)]!;
    this.#texts.shift();
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

/** A record as read back: the bodies are clipped strings by then. */
type KeptRecord = JournalRecord & { id: number; responseBody: string };

/** What a record's text holds: its numbers are kept beside it. */
type TextFields = Omit<KeptRecord, 'id' | 'time' | 'status' | 'durationMs'>;

/**
 * A record as one text: its fields as a JSON array, a newline, then the two bodies as they are.
 * Written once per exchange under load: JSON-escaping a body (quotes in every JSON body) cost
 * ~5 µs, about as much as the rest of a list request; the bodies' lengths say where they part.
 */
function textOf(record: JournalRecord): string[] {
  const fields = JSON.stringify([
    record.method,
    record.url,
    record.operationId ?? null,
    record.chaos ?? null,
    record.requestHeaders,
    record.responseHeaders,
    record.violations ?? null,
    record.requestBody.length,
  ]);
  return [fields, '\n', record.requestBody, record.responseBody as string];
}

function recordOf(text: string): TextFields {
  const newline = text.indexOf('\n');
  const fields = JSON.parse(text.slice(0, newline)) as unknown[];
  const bodies = text.slice(newline + 1);
  const requestLength = fields[7] as number;
  return {
    method: fields[0] as string,
    url: fields[1] as string,
    operationId: (fields[2] as string | null) ?? undefined,
    chaos: (fields[3] as JournalRecord['chaos'] | null) ?? undefined,
    requestHeaders: fields[4] as JournalRecord['requestHeaders'],
    responseHeaders: fields[5] as HeaderList,
    violations: (fields[6] as Violation[] | null) ?? undefined,
    requestBody: bodies.slice(0, requestLength),
    responseBody: bodies.slice(requestLength),
  };
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
 * What an entry is estimated to cost: its text (the fields' JSON holds the URL, the headers and the
 * violations, as they are kept), two bytes a character, and the objects around it. Read from the
 * text made anyway, not by walking the headers a second time.
 */
function sizeOf(text: readonly string[]): number {
  let characters = 0;
  for (const part of text) characters += part.length;
  return ENTRY_OVERHEAD_BYTES + 2 * characters;
}
