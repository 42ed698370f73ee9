// Raw HTTP for the second round: bytes written as given (no client library to fix the framing or
// normalise the target), the first answer parsed from what comes back.
import net from 'node:net';
import { errorProblem } from '../conformance.js';

/**
 * Writes `payload` to `origin`'s port and reads until the server closes or `waitMs` passes.
 * Resolves {status (0: none), headers (lower-case names), body, text, ms, closed}.
 */
export function rawExchange(origin, payload, waitMs = 3000) {
  const { hostname, port } = new URL(origin);
  return new Promise((resolve) => {
    const started = performance.now();
    const socket = net.connect(Number(port), hostname);
    let text = '';
    let done = false;
    const finish = (closed) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.destroy();
      resolve({ ...parseAnswer(text), text, closed, ms: performance.now() - started });
    };
    const timer = setTimeout(() => finish(false), waitMs);
    socket.setEncoding('latin1');
    socket.on('data', (chunk) => (text += chunk));
    socket.on('end', () => finish(true));
    socket.on('close', () => finish(true));
    socket.on('error', () => finish(true));
    socket.on('connect', () => socket.write(payload));
  });
}

/** The first answer in `text`: status, headers and the body its Content-Length frames (else the rest). */
export function parseAnswer(text) {
  const split = text.indexOf('\r\n\r\n');
  const head = split === -1 ? text : text.slice(0, split);
  const rest = split === -1 ? '' : text.slice(split + 4);
  const status = /^HTTP\/1\.[01] (\d{3})/.exec(head);
  const headers = {};
  for (const line of head.split('\r\n').slice(1)) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  const length = Number(headers['content-length']);
  const body = Number.isInteger(length) ? rest.slice(0, length) : rest;
  return { status: status ? Number(status[1]) : 0, headers, body };
}

/** Why an answer is not a conforming `Error` body (undefined when it is). */
export function notAnError(answer) {
  return errorProblem({ status: answer.status, headers: answer.headers, body: Buffer.from(answer.body, 'latin1') });
}

/** A request line, headers and a body framed by Content-Length (when there is one or the method needs it). */
export function requestText(method, target, headers = {}, body = '') {
  const lines = Object.entries({ Host: 'x', Connection: 'close', ...headers }).map(
    ([name, value]) => `${name}: ${value}\r\n`,
  );
  const length =
    body !== '' || !['GET', 'HEAD'].includes(method) ? `Content-Length: ${Buffer.byteLength(body)}\r\n` : '';
  return `${method} ${target} HTTP/1.1\r\n${lines.join('')}${length}\r\n${body}`;
}

/** A finding of the second round: what broke, on which request. */
export function finding(family, kind, variant, detail, extra = {}) {
  return { family, kind, variant, detail, ...extra };
}
