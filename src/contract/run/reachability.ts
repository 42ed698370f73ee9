import { hideUrlCredentials } from '../../core/redact.js';
import { ToolError } from '../../core/tool-error.js';
import { describeNetworkError } from '../transport/http-client.js';

/** Failures worth waiting out while a deployment starts (`--wait-for`). */
const NOT_LISTENING_YET = new Set(['connection refused', 'connection reset by the server']);

function parseBaseUrl(baseUrl: string): URL {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw new ToolError(`--base-url ${JSON.stringify(hideUrlCredentials(baseUrl))} is not a URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new ToolError(`--base-url must be http or https, not ${url.protocol}`);
  if (url.username || url.password)
    throw new ToolError(`--base-url cannot carry credentials (user:password@): use --header 'Authorization: …'`);
  return url;
}

function pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
    function done(): void {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
  });
}

export interface ProbeOptions {
  timeoutMs: number;
  headers: Record<string, string>;
  /** Keep retrying a refused connection this long (0: one try). */
  waitForMs: number;
  signal?: AbortSignal;
}

/**
 * Sends one GET to the base URL and reads none of its body: any HTTP answer means reachable.
 * A refused connection is retried until `waitForMs` has passed; anything else is a ToolError at once.
 */
export async function assertReachable(baseUrl: string, options: ProbeOptions): Promise<void> {
  const url = parseBaseUrl(baseUrl);
  const deadline = Date.now() + options.waitForMs;
  for (let attempt = 1; ; attempt += 1) {
    const signals = [AbortSignal.timeout(options.timeoutMs), ...(options.signal ? [options.signal] : [])];
    try {
      const response = await fetch(url, {
        method: 'GET',
        headers: options.headers,
        signal: AbortSignal.any(signals),
        redirect: 'manual',
      });
      await response.body?.cancel();
      return;
    } catch (error) {
      if (options.signal?.aborted) throw new ToolError(`stopped while waiting for ${baseUrl}`);
      const why = describeNetworkError(error, options.timeoutMs);
      const left = deadline - Date.now();
      if (!NOT_LISTENING_YET.has(why) || left <= 0) {
        const waited = options.waitForMs > 0 ? ` (tried ${attempt} times in ${options.waitForMs / 1000} s)` : '';
        const advice =
          why === 'connection refused' && options.waitForMs === 0
            ? '; starting it just now? use --wait-for SECONDS'
            : '';
        throw new ToolError(`cannot reach ${baseUrl}: ${why}${waited}${advice}`);
      }
      await pause(Math.min(left, 50 * 2 ** Math.min(attempt, 3)), options.signal);
    }
  }
}

/**
 * Advice when every operation answered 404 and nothing else: the base URL probably misses the
 * document's base path (its first server's path, `/v1`).
 */
export function basePathHint(baseUrl: string, documentBasePath: string, only404: boolean): string | undefined {
  if (!only404) return undefined;
  const trimmed = baseUrl.replace(/\/+$/, '');
  const path = new URL(trimmed).pathname.replace(/\/+$/, '');
  if (documentBasePath && !path.endsWith(documentBasePath))
    return `every operation answered 404: did you mean ${trimmed}${documentBasePath}? (the document's servers are under ${documentBasePath})`;
  return `every operation answered 404: is ${baseUrl} the base URL of this API?`;
}
