import { parseJson } from '../../core/json.js';
import { buildRequest, type Credentials } from '../prepare/request-builder.js';
import type { Exchange, ReceivedResponse, RequestSpec, SentRequest } from '../types.js';

export interface ClientOptions extends Credentials {
  baseUrl: string;
  /** Per request: from sending it to the last byte of its body. */
  timeoutMs: number;
  /** Requests in flight at once. */
  concurrency: number;
  /** Requests per second at most; 0 for no limit. */
  rateLimit: number;
  /** Retries of a 429/503 that says when to come back (Retry-After). */
  maxRetries: number;
  /** Longest Retry-After honoured, in ms. */
  maxRetryAfterMs: number;
  /** Largest response body read, counted after decompression; a larger one is cut off and reported. */
  maxResponseBytes?: number;
  /** Aborting it stops every request at once: `send` then throws `RunStopped`. */
  signal?: AbortSignal;
}

/** Response bodies beyond this are not read (a Pet Store page of 100 pets is a few kilobytes). */
export const MAX_RESPONSE_BYTES = 10 * 1024 * 1024;

/** Thrown by `send` once the run is stopped (interrupt, --max-failures): not a finding, the end of the run. */
export class RunStopped extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = 'RunStopped';
  }
}

class ResponseTooLarge extends Error {}

/** Bodies may grow this large concurrently; beyond it, one body at a time is read (see `#largeBodies`). */
export const LARGE_BODY_BYTES = 1024 * 1024;

/** A lock with one holder: `await lock.acquire()` resolves to its release function. */
class Lock {
  #tail: Promise<void> = Promise.resolve();

  acquire(): Promise<() => void> {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const ready = this.#tail.then(() => release);
    this.#tail = this.#tail.then(() => held);
    return ready;
  }
}

type Outcome = { response?: ReceivedResponse; error?: string };

/**
 * One request's signal: aborted after `ms` (a TimeoutError) or when `stop` aborts. Cleared once the
 * request ends: `AbortSignal.timeout` and `AbortSignal.any` would each leave a timer behind that
 * fires later and builds a DOMException with its stack, per request (3 % of a check run's CPU).
 */
class Deadline {
  readonly #controller = new AbortController();
  readonly #timer: NodeJS.Timeout;
  readonly #stop?: AbortSignal;
  readonly #onStop = (): void => this.#controller.abort(this.#stop?.reason);
  expired = false;

  constructor(ms: number, stop?: AbortSignal) {
    this.#timer = setTimeout(() => {
      this.expired = true;
      this.#controller.abort(new DOMException(`no response within ${ms} ms`, 'TimeoutError'));
    }, ms);
    this.#stop = stop;
    if (stop?.aborted) this.#onStop();
    else stop?.addEventListener('abort', this.#onStop, { once: true });
  }

  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  clear(): void {
    clearTimeout(this.#timer);
    this.#stop?.removeEventListener('abort', this.#onStop);
  }
}

/** Sends check requests over real HTTP (fetch), politely: bounded concurrency, rate, retries and body size. */
export class HttpClient {
  readonly #options: ClientOptions;
  readonly #waiting: (() => void)[] = [];
  #inFlight = 0;
  #nextSlot = 0;
  #sent = 0;
  /**
   * Concurrent requests may each read 1 MB; past that a body waits for this lock, so at most one
   * body grows towards the limit at a time and memory stays near `maxResponseBytes` whatever the
   * concurrency (eight 50 MB bodies at once would otherwise hold 80 MB before any is refused).
   */
  readonly #largeBodies = new Lock();

  constructor(options: ClientOptions) {
    this.#options = options;
    options.signal?.addEventListener('abort', () => this.#waiting.splice(0).forEach((wake) => wake()), { once: true });
  }

  /** Requests answered or failed so far (retries of a 429/503 count once). */
  get requestCount(): number {
    return this.#sent;
  }

  async send(spec: RequestSpec): Promise<Exchange> {
    const request = buildRequest(this.#options.baseUrl, spec, this.#options);
    await this.#acquire();
    const started = performance.now();
    try {
      const outcome = await this.#fetchWithRetries(request);
      this.#sent += 1;
      return {
        operation: spec.operation,
        intent: spec.intent,
        purpose: spec.purpose,
        strictStatus: spec.strictStatus,
        ...(spec.acceptance ? { acceptance: spec.acceptance } : {}),
        request,
        ...outcome,
        durationMs: Math.round(performance.now() - started),
      };
    } finally {
      this.#release();
    }
  }

  #throwIfStopped(): void {
    const signal = this.#options.signal;
    if (signal?.aborted) throw new RunStopped(String(signal.reason ?? 'stopped'));
  }

  async #fetchWithRetries(request: SentRequest): Promise<Outcome> {
    for (let attempt = 0; ; attempt += 1) {
      await this.#pace();
      const outcome = await this.#fetchOnce(request);
      const wait = outcome.response && retryAfterMs(outcome.response);
      if (wait === undefined || attempt >= this.#options.maxRetries || wait > this.#options.maxRetryAfterMs)
        return outcome;
      await sleep(wait, this.#options.signal);
      this.#throwIfStopped();
    }
  }

  async #fetchOnce(request: SentRequest): Promise<Outcome> {
    this.#throwIfStopped();
    const { timeoutMs } = this.#options;
    const deadline = new Deadline(timeoutMs, this.#options.signal);
    let status: number | undefined;
    try {
      const response = await fetch(request.url, {
        method: request.method,
        headers: request.headers,
        body: request.body,
        signal: deadline.signal,
        redirect: 'manual',
      });
      status = response.status;
      const limit = this.#options.maxResponseBytes ?? MAX_RESPONSE_BYTES;
      const { text, size } = await readBounded(response, limit, () => this.#largeBodies.acquire());
      const headers: Record<string, string> = {};
      response.headers.forEach((value, name) => (headers[name] = value));
      const json = text.trim() === '' ? undefined : parseJson(text);
      return { response: { status: response.status, headers, text, json, size } };
    } catch (error) {
      this.#throwIfStopped();
      if (error instanceof ResponseTooLarge) return { error: error.message };
      if (status !== undefined && deadline.expired)
        return { error: `status ${status}, but the body did not end within ${timeoutMs} ms` };
      return { error: describeNetworkError(error, timeoutMs) };
    } finally {
      deadline.clear();
    }
  }

  async #pace(): Promise<void> {
    if (this.#options.rateLimit <= 0) return;
    const now = Date.now();
    const slot = Math.max(now, this.#nextSlot);
    this.#nextSlot = slot + 1000 / this.#options.rateLimit;
    if (slot > now) await sleep(slot - now, this.#options.signal);
    this.#throwIfStopped();
  }

  async #acquire(): Promise<void> {
    this.#throwIfStopped();
    if (this.#inFlight < this.#options.concurrency) {
      this.#inFlight += 1;
      return;
    }
    await new Promise<void>((resolve) => this.#waiting.push(resolve));
    this.#throwIfStopped();
    this.#inFlight += 1;
  }

  #release(): void {
    this.#inFlight -= 1;
    this.#waiting.shift()?.();
  }
}

function sizeText(bytes: number): string {
  return bytes % (1024 * 1024) === 0 ? `${bytes / (1024 * 1024)} MB` : `${bytes} bytes`;
}

/**
 * The body as UTF-8 text and its size in bytes, refusing one larger than `limit` bytes. fetch
 * decompresses gzip, deflate and br before we see a chunk, so the bytes counted (and the limit)
 * are those of the decompressed body: a gzip bomb stops at the limit like any other large body.
 */
async function readBounded(
  response: Response,
  limit: number,
  growLarge: () => Promise<() => void>,
): Promise<{ text: string; size: number }> {
  const tooLarge = (seen: string) =>
    new ResponseTooLarge(
      `status ${response.status}, but the body is larger than ${sizeText(limit)} (${seen}): kennel stopped reading it (--max-response-size)`,
    );
  const declared = Number(response.headers.get('content-length') ?? 0);
  if (!response.headers.has('content-encoding') && declared > limit) {
    await response.body?.cancel();
    throw tooLarge(`Content-Length ${declared}`);
  }
  if (!response.body) return { text: '', size: 0 };
  const chunks: Uint8Array[] = [];
  let size = 0;
  let release: (() => void) | undefined;
  try {
    // The stream yields Uint8Array chunks; its async iterator is typed `any` in the DOM lib.
    for await (const chunk of response.body as AsyncIterable<Uint8Array>) {
      size += chunk.byteLength;
      if (size > limit) {
        chunks.length = 0;
        throw tooLarge(response.headers.has('content-encoding') ? 'decompressed' : 'streamed'); // leaving the loop cancels the stream
      }
      if (size > LARGE_BODY_BYTES && !release) release = await growLarge();
      chunks.push(chunk);
    }
    return { text: Buffer.concat(chunks, size).toString('utf8'), size };
  } finally {
    release?.();
  }
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const done = (): void => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });
}

/** Milliseconds a 429 or 503 asks to wait (Retry-After: seconds or an HTTP date), else undefined. */
export function retryAfterMs(
  response: Pick<ReceivedResponse, 'status' | 'headers'>,
  now = Date.now(),
): number | undefined {
  if (response.status !== 429 && response.status !== 503) return undefined;
  const header = response.headers['retry-after'];
  if (header === undefined) return undefined;
  if (/^\d+$/.test(header.trim())) return Number(header.trim()) * 1000;
  const date = Date.parse(header);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** A network failure in words: refused, unknown host, timeout. */
export function describeNetworkError(error: unknown, timeoutMs: number): string {
  const failure = error as { name?: string; message?: string; cause?: { code?: string; message?: string } };
  if (failure.name === 'TimeoutError' || failure.name === 'AbortError') return `no response within ${timeoutMs} ms`;
  const code = failure.cause?.code;
  if (code === 'ECONNREFUSED') return 'connection refused';
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return 'host not found';
  if (code === 'ECONNRESET' || code === 'UND_ERR_SOCKET') return 'connection reset by the server';
  return failure.cause?.message ?? failure.message ?? String(error);
}
