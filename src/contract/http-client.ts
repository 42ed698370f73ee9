import { parseJson } from '../core/json.js';
import { buildRequest, type Credentials } from './request-builder.js';
import type { Exchange, ReceivedResponse, RequestSpec, SentRequest } from './types.js';

export interface ClientOptions extends Credentials {
  baseUrl: string;
  timeoutMs: number;
  /** Requests in flight at once. */
  concurrency: number;
  /** Requests per second at most; 0 for no limit. */
  rateLimit: number;
  /** Retries of a 429/503 that says when to come back (Retry-After). */
  maxRetries: number;
  /** Longest Retry-After honoured, in ms. */
  maxRetryAfterMs: number;
  /** Largest response body read; a larger one is reported as an error instead of filling memory. */
  maxResponseBytes?: number;
}

/** Response bodies beyond this are not read (a Pet Store page of 100 pets is a few kilobytes). */
export const MAX_RESPONSE_BYTES = 2 * 1024 * 1024;

class ResponseTooLarge extends Error {}

/** Sends check requests over real HTTP (fetch), politely: bounded concurrency, rate and retries. */
export class HttpClient {
  readonly #options: ClientOptions;
  readonly #waiting: (() => void)[] = [];
  #inFlight = 0;
  #nextSlot = 0;
  readonly exchanges: Exchange[] = [];

  constructor(options: ClientOptions) {
    this.#options = options;
  }

  get requestCount(): number {
    return this.exchanges.length;
  }

  async send(spec: RequestSpec): Promise<Exchange> {
    const request = buildRequest(this.#options.baseUrl, spec, this.#options);
    await this.#acquire();
    const started = performance.now();
    try {
      const outcome = await this.#fetchWithRetries(request);
      const exchange: Exchange = {
        operation: spec.operation,
        intent: spec.intent,
        purpose: spec.purpose,
        strictStatus: spec.strictStatus,
        request,
        ...outcome,
        durationMs: Math.round(performance.now() - started),
      };
      this.exchanges.push(exchange);
      return exchange;
    } finally {
      this.#release();
    }
  }

  async #fetchWithRetries(request: SentRequest): Promise<{ response?: ReceivedResponse; error?: string }> {
    for (let attempt = 0; ; attempt += 1) {
      await this.#pace();
      const outcome = await this.#fetchOnce(request);
      const wait = outcome.response && retryAfterMs(outcome.response);
      if (wait === undefined || attempt >= this.#options.maxRetries || wait > this.#options.maxRetryAfterMs)
        return outcome;
      await sleep(wait);
    }
  }

  async #fetchOnce(request: SentRequest): Promise<{ response?: ReceivedResponse; error?: string }> {
    try {
      const response = await fetch(request.url, {
        method: request.method,
        headers: request.headers,
        body: request.body,
        signal: AbortSignal.timeout(this.#options.timeoutMs),
        redirect: 'manual',
      });
      const text = await readBounded(response, this.#options.maxResponseBytes ?? MAX_RESPONSE_BYTES);
      const headers: Record<string, string> = {};
      response.headers.forEach((value, name) => (headers[name] = value));
      const json = text.trim() === '' ? undefined : parseJson(text);
      return { response: { status: response.status, headers, text, json } };
    } catch (error) {
      if (error instanceof ResponseTooLarge) return { error: error.message };
      return { error: describeNetworkError(error, this.#options.timeoutMs) };
    }
  }

  async #pace(): Promise<void> {
    if (this.#options.rateLimit <= 0) return;
    const now = Date.now();
    const slot = Math.max(now, this.#nextSlot);
    this.#nextSlot = slot + 1000 / this.#options.rateLimit;
    if (slot > now) await sleep(slot - now);
  }

  async #acquire(): Promise<void> {
    if (this.#inFlight < this.#options.concurrency) {
      this.#inFlight += 1;
      return;
    }
    await new Promise<void>((resolve) => this.#waiting.push(resolve));
    this.#inFlight += 1;
  }

  #release(): void {
    this.#inFlight -= 1;
    this.#waiting.shift()?.();
  }
}

/** The body as UTF-8 text, refusing (and cancelling) one larger than `limit` bytes. */
async function readBounded(response: Response, limit: number): Promise<string> {
  const tooLarge = () => new ResponseTooLarge(`response body larger than ${limit} bytes: kennel stopped reading it`);
  if (Number(response.headers.get('content-length') ?? 0) > limit) {
    await response.body?.cancel();
    throw tooLarge();
  }
  if (!response.body) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of response.body) {
    size += chunk.byteLength;
    if (size > limit) throw tooLarge(); // leaving the loop cancels the stream
    chunks.push(chunk);
  }
  return Buffer.concat(chunks, size).toString('utf8');
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
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
