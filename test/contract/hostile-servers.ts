// Deployments that misbehave at the HTTP level, for the contract runner's resource bounds: bodies
// that never end, bodies far over the limit, gzip bombs. Real listeners on 127.0.0.1, port 0.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';

export interface TestServer {
  /** Base URL, ending in /v1. */
  url: string;
  origin: string;
  /** Requests received so far. */
  requests: IncomingMessage[];
  close(): Promise<void>;
}

/** Serves `handler` on a free port; `close()` also ends connections still open. */
export async function serve(
  handler: (request: IncomingMessage, response: ServerResponse) => void,
): Promise<TestServer> {
  const requests: IncomingMessage[] = [];
  const server = createServer((request, response) => {
    requests.push(request);
    handler(request, response);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: `${origin}/v1`,
    origin,
    requests,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Writes `chunk` `times` times, respecting backpressure, and stops when the client goes away. */
function pump(response: ServerResponse, chunk: Buffer, times: number): void {
  let written = 0;
  let gone = false;
  response.on('close', () => (gone = true));
  const more = (): void => {
    while (!gone && written < times) {
      written += 1;
      if (!response.write(chunk)) {
        response.once('drain', more);
        return;
      }
    }
    if (!gone) response.end();
  };
  more();
}

/** Every response: 200 JSON, `megabytes` MB streamed without a Content-Length. */
export function streamingServer(megabytes: number): Promise<TestServer> {
  const chunk = Buffer.alloc(64 * 1024, 0x20);
  return serve((request, response) => {
    request.resume();
    response.writeHead(200, { 'content-type': 'application/json' });
    pump(response, chunk, megabytes * 16);
  });
}

/**
 * Every response: a gzip bomb, `gigabytes` GB of zeros once decompressed, sent as concatenated
 * gzip members of 64 MB each (64 KB compressed; fetch decompresses every member, as RFC 1952 allows).
 */
export function gzipBombServer(gigabytes: number): Promise<TestServer> {
  const member = gzipSync(Buffer.alloc(64 * 1024 * 1024), { level: 9 });
  return serve((request, response) => {
    request.resume();
    response.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
    pump(response, member, gigabytes * 16);
  });
}

/** Every response: 200 and the start of a JSON array, then a space every 100 ms, forever. */
export function neverEndingServer(): Promise<TestServer> {
  return serve((request, response) => {
    request.resume();
    response.writeHead(200, { 'content-type': 'application/json' });
    response.write('[');
    const timer = setInterval(() => response.write(' '), 100);
    response.on('close', () => clearInterval(timer));
  });
}
