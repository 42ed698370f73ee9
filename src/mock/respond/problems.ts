import type { Socket } from 'node:net';
import { defaultCode, ProblemError, type ErrorBody } from '../../core/problem.js';
import { StoreUnavailable } from '../../store/store-unavailable.js';

/**
 * Any thrown value as a ProblemError: our own pass through, client errors raised by Koa or its
 * helpers keep their status, and everything else is an internal error whose details stay in the log.
 */
export function toProblem(error: unknown): ProblemError {
  if (error instanceof ProblemError) return error;
  // The client may retry: the store, not kennel, failed (and not the request).
  if (error instanceof StoreUnavailable)
    return new ProblemError(503, 'store_unavailable', error.message, { 'Retry-After': '1' });
  if (error instanceof URIError)
    return new ProblemError(400, 'bad_request', 'The URL is not valid: malformed percent-encoding');
  const status = (error as { status?: unknown }).status;
  if (typeof status === 'number' && status >= 400 && status < 500) {
    const message = (error as { expose?: boolean }).expose ? (error as Error).message : 'The request is not valid';
    return new ProblemError(status, defaultCode(status), message);
  }
  return new ProblemError(
    500,
    'internal_error',
    'kennel failed to answer this request; the server log has the details',
  );
}

/** JSON text of an Error body. */
export function errorJson(problem: ProblemError): string {
  const body: ErrorBody = problem.toBody();
  return JSON.stringify(body);
}

const REASONS: Readonly<Record<number, string>> = {
  400: 'Bad Request',
  405: 'Method Not Allowed',
  408: 'Request Timeout',
  431: 'Request Header Fields Too Large',
};

/** The problem for a request Node's HTTP parser refused; the parser's own reason is a fixed text, safe to show. */
function clientErrorProblem(error: Error & { code?: string; reason?: unknown }): ProblemError {
  if (error.code === 'HPE_HEADER_OVERFLOW') {
    return new ProblemError(431, 'headers_too_large', 'Request headers are larger than the server accepts');
  }
  if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') {
    return new ProblemError(408, 'request_timeout', 'The request did not arrive in time; send it whole, promptly');
  }
  const reason = typeof error.reason === 'string' && error.reason.length <= 120 ? `: ${error.reason}` : '';
  return new ProblemError(400, 'bad_request', `The request is not valid HTTP${reason}`);
}

/**
 * Answers requests Node's HTTP parser rejects before Koa sees them (oversized headers, broken
 * request lines, bad framing, slow clients) with an `Error` body instead of a bare status line.
 */
export function answerClientError(error: Error & { code?: string }, socket: Socket): void {
  if (!socket.writable || error.code === 'ECONNRESET') {
    socket.destroy();
    return;
  }
  endWithProblem(socket, clientErrorProblem(error));
}

/** Answers CONNECT (which Node hands to no request handler) instead of dropping the connection. */
export function answerConnect(_request: unknown, socket: Socket): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const problem = new ProblemError(405, 'method_not_allowed', 'CONNECT is not supported: kennel is not a proxy');
  endWithProblem(socket, problem);
}

/** Writes a whole response for `problem` on a raw socket and closes it. */
function endWithProblem(socket: Socket, problem: ProblemError): void {
  const body = errorJson(problem);
  socket.end(
    `HTTP/1.1 ${problem.status} ${REASONS[problem.status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}
