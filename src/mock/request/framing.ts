import type { IncomingMessage } from 'node:http';
import { ProblemError } from '../../core/problem.js';

// Node's parser accepts some requests that RFC 9112 says a server must refuse, or that kennel
// would read wrongly; this refuses them before anything else looks at the request. Every refusal
// closes the connection, since the body (if any) was not read and the framing cannot be trusted.

/** `host` or `host:port`, with a reg-name, an IPv4 address or a bracketed IPv6 literal (RFC 3986 §3.2.2). */
const HOST = /^(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9\-._~!$&'()*+,;=%]+)(?::\d{0,5})?$/;

function refuse(status: number, code: string, message: string): ProblemError {
  return new ProblemError(status, code, message, { Connection: 'close' });
}

function hostCount(request: IncomingMessage): number {
  let count = 0;
  for (let index = 0; index < request.rawHeaders.length; index += 2) {
    const name = request.rawHeaders[index]!;
    if (name.length === 4 && name.toLowerCase() === 'host') count += 1;
  }
  return count;
}

function versionProblem(request: IncomingMessage): ProblemError | undefined {
  if (request.httpVersionMajor === 1) return undefined;
  return refuse(
    400,
    'unsupported_http_version',
    `The request line says HTTP/${request.httpVersion}; kennel speaks HTTP/1.1 and HTTP/1.0 on this port`,
  );
}

function hostProblem(request: IncomingMessage): ProblemError | undefined {
  const count = hostCount(request);
  if (count > 1)
    return refuse(400, 'bad_request', `The request has ${count} Host headers; send exactly one (RFC 9112 §3.2)`);
  if (count === 0) {
    if (request.httpVersionMinor === 0) return undefined;
    return refuse(400, 'bad_request', 'The request has no Host header, which HTTP/1.1 requires (RFC 9112 §3.2)');
  }
  if (HOST.test(request.headers.host ?? '')) return undefined;
  return refuse(400, 'bad_request', 'The Host header is not a valid host[:port] (RFC 9112 §3.2)');
}

function transferCodingProblem(request: IncomingMessage): ProblemError | undefined {
  const header = request.headers['transfer-encoding'];
  if (header === undefined || header.trim().toLowerCase() === 'chunked') return undefined;
  return refuse(
    400,
    'unsupported_transfer_coding',
    `Transfer-Encoding ${JSON.stringify(header.slice(0, 100))} is not supported: send the body as is, ` +
      'with Content-Length or Transfer-Encoding: chunked alone (RFC 9112 §6.1)',
  );
}

function expectationProblem(request: IncomingMessage): ProblemError | undefined {
  const expect = request.headers.expect;
  if (expect === undefined || expect.trim().toLowerCase() === '100-continue') return undefined;
  return refuse(
    417,
    'expectation_failed',
    `Expect ${JSON.stringify(expect.slice(0, 100))} cannot be met: kennel supports only 100-continue (RFC 9110 §10.1.1)`,
  );
}

/** Why a request's framing is refused, or undefined when it is acceptable. */
export function framingProblem(request: IncomingMessage): ProblemError | undefined {
  return (
    versionProblem(request) ?? hostProblem(request) ?? transferCodingProblem(request) ?? expectationProblem(request)
  );
}
