/** One exchange as the admin journal shows it. */
export interface JournalEntry {
  id: number;
  time: string;
  method: string;
  url: string;
  operationId: string | undefined;
  status: number;
  durationMs: number;
  request: { headers: Record<string, string | string[] | undefined>; body: string };
  response: { headers: Record<string, unknown>; body: string };
}

/** What the mock records per exchange: references only, so recording costs nothing on the hot path. */
export interface JournalRecord {
  time: number;
  method: string;
  url: string;
  operationId: string | undefined;
  status: number;
  durationMs: number;
  requestHeaders: Record<string, string | string[] | undefined>;
  requestBody: string;
  responseHeaders: Record<string, unknown>;
  responseBody: unknown;
}

const BODY_PREVIEW = 8 * 1024;
const SECRET_HEADERS = new Set(['authorization', 'cookie', 'x-api-key']);

/** The last N exchanges, oldest first; formatting (truncation, redaction) happens when read. */
export class Journal {
  readonly #capacity: number;
  readonly #records: (JournalRecord | undefined)[];
  #next = 0;
  #count = 0;

  constructor(capacity: number) {
    this.#capacity = Math.max(0, capacity);
    this.#records = new Array<JournalRecord | undefined>(this.#capacity);
  }

  record(entry: JournalRecord): void {
    if (this.#capacity === 0) return;
    this.#records[this.#next % this.#capacity] = entry;
    this.#next += 1;
    this.#count = Math.min(this.#count + 1, this.#capacity);
  }

  /** The most recent `limit` exchanges, oldest first, with secrets redacted and bodies truncated. */
  recent(limit = this.#capacity): JournalEntry[] {
    const take = Math.min(limit, this.#count);
    const entries: JournalEntry[] = [];
    for (let sequence = this.#next - take; sequence < this.#next; sequence += 1) {
      const record = this.#records[sequence % this.#capacity];
      if (record) entries.push(present(record, sequence + 1));
    }
    return entries;
  }

  clear(): void {
    this.#records.fill(undefined);
    this.#count = 0;
  }
}

function present(record: JournalRecord, id: number): JournalEntry {
  return {
    id,
    time: new Date(record.time).toISOString(),
    method: record.method,
    url: record.url,
    operationId: record.operationId,
    status: record.status,
    durationMs: record.durationMs,
    request: { headers: redact(record.requestHeaders), body: preview(record.requestBody) },
    response: { headers: record.responseHeaders, body: preview(record.responseBody) },
  };
}

function redact(headers: Record<string, string | string[] | undefined>): Record<string, string | string[] | undefined> {
  const out: Record<string, string | string[] | undefined> = {};
  for (const [name, value] of Object.entries(headers))
    out[name] = SECRET_HEADERS.has(name) && typeof value === 'string' ? redactValue(value) : value;
  return out;
}

/** Keeps the scheme and the first characters of a credential: enough to tell keys apart, not to reuse one. */
function redactValue(value: string): string {
  const [scheme, token] = value.includes(' ')
    ? [value.slice(0, value.indexOf(' ')), value.slice(value.indexOf(' ') + 1)]
    : ['', value];
  const shown = token.length > 8 ? `${token.slice(0, 4)}…` : '…';
  return scheme ? `${scheme} ${shown}` : shown;
}

function preview(body: unknown): string {
  if (body === undefined || body === null) return '';
  const text =
    typeof body === 'string' ? body : Buffer.isBuffer(body) ? `<${body.length} bytes>` : JSON.stringify(body);
  return text.length > BODY_PREVIEW ? `${text.slice(0, BODY_PREVIEW)}… (${text.length} characters)` : text;
}
