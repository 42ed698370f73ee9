import { createServer, request, type IncomingMessage, type ServerResponse } from 'node:http';
import { PassThrough } from 'node:stream';
import { pino, type Logger } from 'pino';
import { listenOnLoopback, type LoopbackServer } from '../helpers/loopback.js';

/** An answer exactly as it came off the wire: status line, raw header pairs, the body's bytes. */
export interface RawAnswer {
  status: number;
  statusMessage: string;
  headers: IncomingMessage['headers'];
  rawHeaders: string[];
  body: Buffer;
}

/** One HTTP/1.1 request over node:http (no decompression, no header rewriting, unlike fetch). */
export function rawRequest(
  url: string,
  options: { method?: string; headers?: Record<string, string | string[]>; body?: string | Buffer } = {},
): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const outgoing = request(url, { method: options.method ?? 'GET', headers: options.headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () =>
        resolve({
          status: response.statusCode!,
          statusMessage: response.statusMessage ?? '',
          headers: response.headers,
          rawHeaders: response.rawHeaders,
          body: Buffer.concat(chunks),
        }),
      );
      response.on('error', reject);
    });
    outgoing.on('error', reject);
    outgoing.end(options.body);
  });
}

/** What a test upstream received. */
export interface Received {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  rawHeaders: string[];
  body: Buffer;
}

export type Route = (request: Received, response: ServerResponse) => void;

/** A real upstream on a loopback port: `route` answers, every request it got is kept in `received`. */
export async function testUpstream(route: Route): Promise<LoopbackServer & { received: Received[] }> {
  const received: Received[] = [];
  const server = createServer((incoming, response) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => {
      const seen: Received = {
        method: incoming.method!,
        url: incoming.url!,
        headers: incoming.headers,
        rawHeaders: incoming.rawHeaders,
        body: Buffer.concat(chunks),
      };
      received.push(seen);
      route(seen, response);
    });
  });
  return { ...(await listenOnLoopback(server)), received };
}

/** A JSON answer as an upstream writes it (bytes as given, with their length). */
export function json(
  response: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const bytes = Buffer.isBuffer(body) ? body : Buffer.from(typeof body === 'string' ? body : JSON.stringify(body));
  response.writeHead(status, {
    'Content-Type': 'application/json',
    'Content-Length': String(bytes.length),
    ...headers,
  });
  response.end(bytes);
}

/** A pino logger whose lines the test can read. */
export function capturedLogger(): { logger: Logger; text: () => string } {
  const stream = new PassThrough();
  let text = '';
  stream.on('data', (chunk) => (text += chunk));
  return { logger: pino({ level: 'info' }, stream), text: () => text };
}

/** The parsed `Kennel-Violations` header, or undefined when absent. */
export function violationsOf(
  answer: RawAnswer,
): { location: string; rule: string; severity: string; message: string; pointer?: string }[] | undefined {
  const header = answer.headers['kennel-violations'];
  return header === undefined ? undefined : JSON.parse(String(header));
}
