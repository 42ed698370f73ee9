import { Agent as HttpAgent, request as httpRequest, type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream';
import { ProblemError } from '../../core/problem.js';
import { ToolError } from '../../core/tool-error.js';

/** The `--proxy` URL checked: http or https, no credentials, query or fragment (they would be logged or lost). */
export function parseUpstream(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ToolError(
      `--proxy ${JSON.stringify(raw)} is not a URL: give the deployment's origin, e.g. https://api.example.com`,
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new ToolError(`--proxy ${url.protocol.slice(0, -1)} URL: kennel forwards to http or https deployments only`);
  if (url.username || url.password)
    throw new ToolError(
      '--proxy URL carries credentials: they would be printed and logged; send them in the requests instead',
    );
  if (url.search || url.hash)
    throw new ToolError('--proxy URL has a query or fragment: give an origin, optionally with a base path');
  return url;
}

/** Where a request path goes upstream: the upstream's path, then the path and query the client asked for. */
export function targetOf(upstream: URL, requestTarget: string): URL {
  const base = upstream.pathname.replace(/\/+$/, '');
  return new URL(`${upstream.origin}${base}${requestTarget.startsWith('/') ? requestTarget : `/${requestTarget}`}`);
}

/** The first bytes of a stream, at most about `limit`; `rest` streams what follows when there is more. */
export interface BoundedBody {
  head: Buffer;
  /** Everything after `head`, when the body is longer than the limit (head included: read it to forward it). */
  whole: Readable | undefined;
}

/**
 * Reads `stream` until it ends or holds more than `limit` bytes. Past the limit the stream is
 * paused and handed back whole (what was read, then the rest), so any size passes through while
 * at most `limit` plus one chunk is held in memory.
 */
export function readUpTo(stream: Readable, limit: number): Promise<BoundedBody> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const cleanup = (): void => {
      stream.off('data', onData);
      stream.off('end', onEnd);
      stream.off('error', onError);
    };
    const onData = (chunk: Buffer): void => {
      chunks.push(chunk);
      size += chunk.length;
      if (size <= limit) return;
      stream.pause();
      cleanup();
      // Until the rest is read, a failure (the peer going away) must not be an unhandled 'error':
      // the stream remembers it, and reading the rest throws it.
      stream.on('error', () => {});
      const head = Buffer.concat(chunks, size);
      resolve({ head, whole: Readable.from(concatenated(head, stream), { objectMode: false }) });
    };
    const onEnd = (): void => {
      cleanup();
      resolve({ head: Buffer.concat(chunks, size), whole: undefined });
    };
    const onError = (error: Error): void => {
      cleanup();
      reject(error);
    };
    stream.on('data', onData);
    stream.once('end', onEnd);
    stream.once('error', onError);
  });
}

async function* concatenated(head: Buffer, rest: Readable): AsyncGenerator<Buffer> {
  yield head;
  for await (const chunk of rest) yield chunk as Buffer;
}

export interface ForwardRequest {
  method: string;
  /** Path and query as the client sent them. */
  target: string;
  headers: Record<string, string | string[]>;
  body: Buffer | Readable;
}

/** The upstream's answer: status line, headers, and its body bounded as `readUpTo` bounds it. */
export interface UpstreamAnswer {
  status: number;
  statusMessage: string;
  headers: IncomingHttpHeaders;
  /** Name, value, name, value… as received: the names' spelling and the order kept. */
  rawHeaders: string[];
  body: BoundedBody;
}

export interface UpstreamOptions {
  /** Longest silence from the upstream (connecting, headers, body) before kennel gives up with 504. */
  timeoutMs: number;
  /** Response bytes held for validation; a longer body streams through unvalidated. */
  maxResponseBytes: number;
}

/** Sends requests to one deployment over kept-alive connections. */
export class Upstream {
  readonly url: URL;
  readonly #options: UpstreamOptions;
  readonly #agent: HttpAgent;

  constructor(url: URL, options: UpstreamOptions) {
    this.url = url;
    this.#options = options;
    this.#agent = url.protocol === 'https:' ? new HttpsAgent({ keepAlive: true }) : new HttpAgent({ keepAlive: true });
  }

  /**
   * Forwards one request; an unreachable or silent upstream becomes a 502 or 504 problem naming it.
   * A kept-alive connection the upstream closed just as it was reused is retried once on a new one
   * when the body can be sent again (held whole): the race every keep-alive client must expect.
   */
  async forward(request: ForwardRequest, signal: AbortSignal): Promise<UpstreamAnswer> {
    try {
      return await this.#send(request, signal);
    } catch (error) {
      const stale = (error as { staleConnection?: boolean }).staleConnection === true;
      if (!stale || !Buffer.isBuffer(request.body) || signal.aborted) throw this.#problem(error as Error);
      return this.#send(request, signal).catch((again: Error) => Promise.reject(this.#problem(again)));
    }
  }

  #send(request: ForwardRequest, signal: AbortSignal): Promise<UpstreamAnswer> {
    const target = targetOf(this.url, request.target);
    const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
    return new Promise<UpstreamAnswer>((resolve, reject) => {
      const outgoing = send(target, {
        method: request.method,
        headers: { ...request.headers, host: target.host },
        agent: this.#agent,
        signal,
      });
      outgoing.setTimeout(this.#options.timeoutMs, () =>
        outgoing.destroy(Object.assign(new Error('timeout'), { code: 'KENNEL_TIMEOUT' })),
      );
      outgoing.once('error', (error: NodeJS.ErrnoException) => {
        const stale = outgoing.reusedSocket && (error.code === 'ECONNRESET' || error.code === 'EPIPE');
        reject(Object.assign(error, { staleConnection: stale }));
      });
      outgoing.once('response', (response: IncomingMessage) => {
        readUpTo(response, this.#options.maxResponseBytes).then(
          (body) =>
            resolve({
              status: response.statusCode ?? 502,
              statusMessage: response.statusMessage ?? '',
              headers: response.headers,
              rawHeaders: response.rawHeaders,
              body,
            }),
          (error: Error) => reject(error),
        );
      });
      if (Buffer.isBuffer(request.body)) outgoing.end(request.body);
      else pipeline(request.body, outgoing, () => {});
    });
  }

  close(): void {
    this.#agent.destroy();
  }

  #problem(error: NodeJS.ErrnoException): ProblemError {
    const where = this.url.origin + this.url.pathname.replace(/\/$/, '');
    if (error.code === 'KENNEL_TIMEOUT')
      return new ProblemError(
        504,
        'gateway_timeout',
        `The upstream ${where} sent nothing for ${this.#options.timeoutMs} ms`,
      );
    return new ProblemError(502, 'bad_gateway', `The upstream ${where} could not be reached: ${reason(error)}`);
  }
}

function reason(error: NodeJS.ErrnoException): string {
  switch (error.code) {
    case 'ECONNREFUSED':
      return 'connection refused';
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return 'host not found';
    case 'ECONNRESET':
      return 'connection reset';
    case 'ABORT_ERR':
      return 'the client went away';
    default:
      return error.code ?? error.message;
  }
}
