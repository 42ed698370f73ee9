// Waiting in tests: on an event where there is one, by polling a condition where there is not.
// Never a fixed sleep: a sleep is too long on a quiet machine and too short on a busy one.
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import type { ClientRequest, Server } from 'node:http';

/** How long a wait lasts before it fails, and how often a poll looks again. */
export interface WaitOptions {
  timeoutMs?: number;
  intervalMs?: number;
}

/** Room for a busy machine: the things waited for take milliseconds, CI shares two cores. */
const DEFAULT_TIMEOUT_MS = 15_000;
const DEFAULT_INTERVAL_MS = 25;

/**
 * Resolves once `condition()` holds (it may be async, and may throw while it does not hold yet),
 * looking again every `intervalMs`; fails after `timeoutMs` with `what()` in the message.
 */
export async function waitUntil(
  condition: () => boolean | Promise<boolean>,
  what: () => string,
  { timeoutMs = DEFAULT_TIMEOUT_MS, intervalMs = DEFAULT_INTERVAL_MS }: WaitOptions = {},
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    const held = await Promise.resolve()
      .then(condition)
      .catch((error: unknown) => {
        lastError = error;
        return false;
      });
    if (held) return;
    if (Date.now() > deadline) {
      const because = lastError === undefined ? '' : ` (last: ${String(lastError)})`;
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what()}${because}`);
    }
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

/** Resolves with the first value `read()` gives that is not undefined (polled as {@link waitUntil}). */
export async function waitForValue<T>(
  read: () => T | undefined | Promise<T | undefined>,
  what: () => string,
  options: WaitOptions = {},
): Promise<T> {
  let value: T | undefined;
  await waitUntil(
    async () => {
      value = await read();
      return value !== undefined;
    },
    what,
    options,
  );
  return value!;
}

/**
 * Text that grows as output arrives, and waits on it by event: `until(text)` resolves as soon as
 * the text holds `text` (at once if it already does), or fails after `timeoutMs` naming it.
 */
export class GrowingText {
  #text = '';
  readonly #waiting = new Set<() => void>();

  append(chunk: string | Buffer): void {
    this.#text += String(chunk);
    for (const look of [...this.#waiting]) look();
  }

  toString(): string {
    return this.#text;
  }

  until(pattern: string | RegExp, timeoutMs = DEFAULT_TIMEOUT_MS): Promise<void> {
    const holds = (): boolean =>
      typeof pattern === 'string' ? this.#text.includes(pattern) : pattern.test(this.#text);
    if (holds()) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const look = (): void => {
        if (!holds()) return;
        this.#waiting.delete(look);
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(() => {
        this.#waiting.delete(look);
        reject(new Error(`timed out after ${timeoutMs} ms waiting for ${String(pattern)} in:\n${this.#text}`));
      }, timeoutMs);
      this.#waiting.add(look);
    });
  }
}

/**
 * For what must not happen: looks at `condition()` every `intervalMs` through a window of
 * `windowMs` and fails at the first look where it no longer holds, naming `what()`. The window is
 * the behaviour under test (a poll period, a debounce), never a guess at how long a step takes.
 */
export async function holdsThroughout(
  condition: () => boolean | Promise<boolean>,
  windowMs: number,
  what: () => string,
  intervalMs = DEFAULT_INTERVAL_MS * 4,
): Promise<void> {
  const end = Date.now() + windowMs;
  for (;;) {
    if (!(await condition())) throw new Error(`no longer holds: ${what()}`);
    if (Date.now() >= end) return;
    await new Promise((resolve) => setTimeout(resolve, Math.min(intervalMs, Math.max(1, end - Date.now()))));
  }
}

/**
 * Resolves once HTTP servers of this process listening on `port` have read the heads of `count`
 * more requests: their apps hold them from then on (Node publishes `http.server.request.start`
 * just before it hands a request to the server's listener). Call it before sending.
 */
export function requestsArrive(port: number, count = 1): Promise<void> {
  return new Promise((resolve) => {
    let seen = 0;
    const onStart = (message: unknown): void => {
      const address = (message as { server: Server }).server.address();
      if (typeof address !== 'object' || address?.port !== port) return;
      seen += 1;
      if (seen < count) return;
      unsubscribe('http.server.request.start', onStart);
      resolve();
    };
    subscribe('http.server.request.start', onStart);
  });
}

/**
 * Resolves once an HTTP client of this process has read the head of an answer from a server on
 * `port` (Node publishes `http.client.response.finish` as it parses the head, before the client
 * sees any of the body). Call it before answering.
 */
export function answerHeadArrives(port: number): Promise<void> {
  return new Promise((resolve) => {
    const onHead = (message: unknown): void => {
      if ((message as { request: ClientRequest }).request.socket?.remotePort !== port) return;
      unsubscribe('http.client.response.finish', onHead);
      resolve();
    };
    subscribe('http.client.response.finish', onHead);
  });
}
