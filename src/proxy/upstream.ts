import { Agent as HttpAgent, request as httpRequest, type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { Socket } from 'node:net';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream';
import { ProblemError } from '../core/problem.js';
import { hideUrlCredentials } from '../core/redact.js';
import { ToolError } from '../core/tool-error.js';
import { confinedTarget } from './target-path.js';
import { upstreamFailure, upstreamProblem } from './upstream-failure.js';

/** The `--proxy` URL checked: http or https, no credentials, query or fragment (they would be logged or lost). */
export function parseUpstream(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ToolError(
      `--proxy ${JSON.stringify(hideUrlCredentials(raw))} is not a URL: give the deployment's origin, e.g. https://api.example.com`,
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

/**
 * Where a request goes upstream: the upstream's base path, then the path the client asked for with
 * its dot segments resolved, then its query. A path that would leave the base path, in any
 * spelling, is a 400: the operator exposed the base path, nothing beside it.
 */
export function targetOf(upstream: URL, requestTarget: string): ProxyTarget {
  const base = upstream.pathname.replace(/\/+$/, '');
  const confined = confinedTarget(requestTarget);
  if (!confined.ok)
    throw new ProblemError(
      400,
      'bad_request',
      `The request path ${confined.reason}: kennel forwards it to no upstream`,
    );
  const target = new URL(`${upstream.origin}${base}${confined.path}${confined.query}`);
  // What the URL parser made of it is checked too: nothing may resolve outside the base path.
  if (target.origin !== upstream.origin || !target.pathname.startsWith(`${base}/`))
    throw new ProblemError(
      400,
      'bad_request',
      'The request path leaves the base path: kennel forwards it to no upstream',
    );
  return { url: target, path: confined.path };
}

/** Where one request goes: the upstream URL, and the client's path as resolved (below the base path). */
export interface ProxyTarget {
  url: URL;
  /** The request's path with its dot segments resolved, as the document's paths are written. */
  path: string;
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
  /** Where it goes: `targetOf(upstream, request target).url`. */
  target: URL;
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
  /**
   * How long the upstream may take to start its answer (status line and headers) once the request
   * is sent, and the longest silence before that and within its body: then kennel answers 504.
   */
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
   * Forwards one request; an unreachable, silent or unintelligible upstream becomes a 502 or 504
   * problem naming it. A kept-alive connection the upstream closed just as it was reused is retried
   * once on a new one when the body can be sent again (held whole): the race every keep-alive
   * client must expect.
   */
  async forward(request: ForwardRequest, signal: AbortSignal): Promise<UpstreamAnswer> {
    const where = this.url.origin + this.url.pathname.replace(/\/$/, '');
    try {
      return await this.#send(request, signal);
    } catch (error) {
      const stale = (error as { staleConnection?: boolean }).staleConnection === true;
      if (!stale || !Buffer.isBuffer(request.body) || signal.aborted)
        throw upstreamProblem(error as Error, where, this.#options.timeoutMs);
      return this.#send(request, signal).catch((again: Error) =>
        Promise.reject(upstreamProblem(again, where, this.#options.timeoutMs)),
      );
    }
  }

  #send(request: ForwardRequest, signal: AbortSignal): Promise<UpstreamAnswer> {
    const { target } = request;
    const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
    return new Promise<UpstreamAnswer>((resolve, reject) => {
      const outgoing = send(target, {
        method: request.method,
        headers: { ...request.headers, host: target.host },
        agent: this.#agent,
        signal,
      });
      let answered = false;
      let deadline: NodeJS.Timeout | undefined;
      const fail = (error: Error): void => {
        clearTimeout(deadline);
        reject(error);
        outgoing.destroy();
      };
      // Silence at any point, and, once the request is sent, an answer that does not start in time
      // (headers trickled a byte at a time never fall silent).
      outgoing.setTimeout(this.#options.timeoutMs, () => fail(upstreamFailure('timeout')));
      outgoing.once('finish', () => {
        if (!answered) deadline = setTimeout(() => fail(upstreamFailure('timeout')), this.#options.timeoutMs);
      });
      outgoing.once('error', (error: NodeJS.ErrnoException) => {
        clearTimeout(deadline);
        const stale = outgoing.reusedSocket && (error.code === 'ECONNRESET' || error.code === 'EPIPE');
        reject(Object.assign(error, { staleConnection: stale }));
      });
      // A 101 to a request that asked no upgrade (kennel never forwards Upgrade): Node hands over
      // the socket here, or drops it when nobody listens, leaving the request unanswered.
      outgoing.once('upgrade', (_response, socket: Socket) => {
        socket.destroy();
        fail(upstreamFailure('switched-protocols', 101));
      });
      outgoing.once('close', () => {
        if (!answered) fail(upstreamFailure('closed'));
      });
      outgoing.once('response', (response: IncomingMessage) => {
        answered = true;
        clearTimeout(deadline);
        const status = response.statusCode ?? 0;
        if (status < 200 || status > 599) {
          response.destroy();
          return fail(upstreamFailure(status === 101 ? 'switched-protocols' : 'status', status));
        }
        readUpTo(response, this.#options.maxResponseBytes).then(
          (body) =>
            resolve({
              status,
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
}
