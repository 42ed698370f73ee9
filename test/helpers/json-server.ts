// The plumbing every small test API of test/contract shares: read the whole request, hand it to
// the server's own handler, write its answer as JSON, and turn a thrown Refusal into the server's
// own error shape. What makes each server itself (routes, validation, faults, the error body it
// documents) stays in its file.
import { createServer, type IncomingHttpHeaders } from 'node:http';
import { listenOnLoopback, type LoopbackServer } from './loopback.js';

/** A request the server refuses: a status, a message for its error body, headers (a challenge). */
export class Refusal extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

/** What a handler answers: no body is an empty answer; `type` other than JSON sends the body as text. */
export interface Answer {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
  /** The Content-Type of a body; application/json by default. */
  type?: string;
}

/** A request, read whole. */
export interface ReceivedRequest {
  method: string;
  /** The request target against the Host the client named. */
  url: URL;
  headers: IncomingHttpHeaders;
  text: string;
}

export type Handler = (request: ReceivedRequest) => Answer | Promise<Answer>;
/** How the server writes a refusal: its documented error body and media type. */
export type RefusalAnswer = (refusal: Refusal, request: ReceivedRequest) => Answer;

/**
 * Serves `handle` on a loopback port. A Refusal it throws is answered by `refused`; anything else
 * it throws is a 500 in the same shape (the server's bug, not the test's crash).
 */
export function startJsonServer(handle: Handler, refused: RefusalAnswer): Promise<LoopbackServer> {
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const received: ReceivedRequest = {
        method: request.method ?? 'GET',
        url: new URL(request.url ?? '/', `http://${request.headers.host ?? 'localhost'}`),
        headers: request.headers,
        text: Buffer.concat(chunks).toString('utf8'),
      };
      const refusal = (error: unknown): Answer =>
        refused(error instanceof Refusal ? error : new Refusal(500, 'unexpected'), received);
      const write = ({ status, body, headers = {}, type = 'application/json' }: Answer): void => {
        if (body === undefined) response.writeHead(status, headers).end();
        else
          response
            .writeHead(status, { ...headers, 'content-type': type })
            .end(/[/+]json$/.test(type) ? JSON.stringify(body) : String(body));
      };
      new Promise<Answer>((resolve) => resolve(handle(received))).then(write, (error: unknown) =>
        write(refusal(error)),
      );
    });
  });
  return listenOnLoopback(server);
}

/** The media type of the request's body, lower case without parameters (`''` when none is named). */
export function mediaTypeOf(headers: IncomingHttpHeaders): string {
  return (headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
}

/** The token of an `Authorization: Bearer <token>` header, the scheme in any letter case. */
export function bearerToken(headers: IncomingHttpHeaders): string | undefined {
  const [, scheme, token] = /^(\S+) +(\S+) *$/.exec(headers.authorization ?? '') ?? [];
  return scheme?.toLowerCase() === 'bearer' ? token : undefined;
}

/**
 * The JSON body of a request that must send application/json: another media type is refused
 * with `unsupported` (400 or 415, as the server's document says), malformed JSON with 400.
 */
export function jsonBody(request: ReceivedRequest, unsupported: 400 | 415 = 400): unknown {
  if (mediaTypeOf(request.headers) !== 'application/json') throw new Refusal(unsupported, 'send application/json');
  try {
    return JSON.parse(request.text);
  } catch {
    throw new Refusal(400, 'malformed JSON');
  }
}
