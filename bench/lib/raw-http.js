// HTTP/1.x over a raw TCP socket (node:net), so that a request's framing can be broken on purpose,
// and a small response parser that says exactly what came back: interim 1xx responses, the final
// response, anything after it (a second response means the server read two requests), or nothing.
import net from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';

const CRLF2 = Buffer.from('\r\n\r\n');

/**
 * Parses one response starting at `offset` of `buffer`. Returns {response, next} when complete,
 * {incomplete: true} when more bytes are needed, or {error} when the bytes are not HTTP.
 * `closed` says the peer closed (a body without length ends there); `head` is a HEAD request.
 */
export function parseResponse(buffer, offset, { head = false, closed = false } = {}) {
  const end = buffer.indexOf(CRLF2, offset);
  if (end === -1) {
    if (buffer.length - offset > 64 * 1024) return { error: 'response headers larger than 64 KB' };
    return { incomplete: true };
  }
  const lines = buffer.toString('latin1', offset, end).split('\r\n');
  const statusLine = /^HTTP\/(\d\.\d) (\d{3})(?: (.*))?$/.exec(lines[0]);
  if (!statusLine) return { error: `not an HTTP status line: ${JSON.stringify(lines[0].slice(0, 80))}` };
  const status = Number(statusLine[2]);
  const headers = {};
  for (const line of lines.slice(1)) {
    const colon = line.indexOf(':');
    if (colon <= 0) return { error: `bad response header line: ${JSON.stringify(line.slice(0, 80))}` };
    const name = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    headers[name] = headers[name] === undefined ? value : [].concat(headers[name], value);
  }
  const bodyStart = end + 4;
  const base = { version: statusLine[1], status, reason: statusLine[3] ?? '', headers };
  if ((status >= 100 && status < 200) || status === 204 || status === 304 || head)
    return { response: { ...base, body: Buffer.alloc(0) }, next: bodyStart };
  const te = String(headers['transfer-encoding'] ?? '').toLowerCase();
  if (te.includes('chunked')) return parseChunked(buffer, bodyStart, base);
  if (headers['content-length'] !== undefined) {
    const length = Number(headers['content-length']);
    if (!Number.isSafeInteger(length) || length < 0)
      return { error: `bad response Content-Length ${headers['content-length']}` };
    if (buffer.length - bodyStart < length) return { incomplete: true };
    return { response: { ...base, body: buffer.subarray(bodyStart, bodyStart + length) }, next: bodyStart + length };
  }
  if (!closed) return { incomplete: true };
  return { response: { ...base, body: buffer.subarray(bodyStart) }, next: buffer.length };
}

function parseChunked(buffer, start, base) {
  const parts = [];
  let at = start;
  for (;;) {
    const lineEnd = buffer.indexOf('\r\n', at);
    if (lineEnd === -1) return { incomplete: true };
    const size = parseInt(buffer.toString('latin1', at, lineEnd).split(';')[0].trim(), 16);
    if (!Number.isFinite(size) || size < 0) return { error: 'bad chunk size in the response' };
    at = lineEnd + 2;
    if (size === 0) {
      const trailerEnd = buffer.indexOf(CRLF2, at - 2);
      if (trailerEnd === -1) return { incomplete: true };
      return { response: { ...base, body: Buffer.concat(parts) }, next: trailerEnd + 4 };
    }
    if (buffer.length < at + size + 2) return { incomplete: true };
    parts.push(buffer.subarray(at, at + size));
    at += size + 2;
  }
}

/** Every complete response in `buffer`: {interim, finals, trailing, error}. */
function parseAll(buffer, { head, closed }) {
  const interim = [];
  const finals = [];
  let offset = 0;
  let error;
  while (offset < buffer.length) {
    const parsed = parseResponse(buffer, offset, { head, closed });
    if (parsed.error) {
      error = parsed.error;
      break;
    }
    if (parsed.incomplete) break;
    (parsed.response.status < 200 ? interim : finals).push(parsed.response);
    offset = parsed.next;
  }
  return { interim, finals, trailing: buffer.length - offset, error };
}

/**
 * Sends `chunks` ({data: Buffer, delayMs?, waitFor100?}) on a new connection and collects what
 * comes back. Bounded: `answerMs` after the last write without a final response the socket is
 * half-closed (a server waiting for more body must then answer or close), and after another
 * `answerMs` it is destroyed and the outcome is 'hang'. `extraMs` keeps listening after the
 * first final response (a second one means the server parsed more than one request).
 *
 * Resolves {outcome, response, finals, interim, error, ms, bytesIn}; outcome is one of
 * 'answered', 'answered-after-eof', 'closed' (no response), 'reset' (socket error before a
 * response), 'hang', 'unparsable' (bytes that are not an HTTP response).
 */
export function sendRaw({ host, port, chunks, head = false, answerMs = 2000, extraMs = 0 }) {
  return new Promise((resolve) => {
    const started = performance.now();
    const socket = net.connect({ host, port });
    socket.setNoDelay(true);
    let received = Buffer.alloc(0);
    let settled = false;
    let halfClosed = false;
    let socketError;
    let timer;
    let hundredSeen = false;
    let onHundred;

    const finish = (outcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      const parsed = parseAll(received, { head, closed: true });
      socket.destroy();
      resolve({
        outcome,
        response: parsed.finals[0],
        finals: parsed.finals,
        interim: parsed.interim,
        parseError: parsed.error,
        error: socketError,
        ms: performance.now() - started,
        bytesIn: received.length,
      });
    };

    const armAnswerTimer = () => {
      clearTimeout(timer);
      timer = setTimeout(() => {
        if (!halfClosed) {
          halfClosed = true;
          socket.end();
          timer = setTimeout(() => finish('hang'), answerMs);
        } else finish('hang');
      }, answerMs);
    };

    socket.on('data', (chunk) => {
      received = received.length === 0 ? chunk : Buffer.concat([received, chunk]);
      const parsed = parseAll(received, { head, closed: false });
      if (parsed.interim.some((response) => response.status === 100) && !hundredSeen) {
        hundredSeen = true;
        onHundred?.();
      }
      if (parsed.error) return finish('unparsable');
      if (parsed.finals.length > 0 && !timer?.extra) {
        const outcome = halfClosed ? 'answered-after-eof' : 'answered';
        if (extraMs <= 0) return finish(outcome);
        clearTimeout(timer);
        timer = setTimeout(() => finish(outcome), extraMs);
        timer.extra = true;
      }
    });
    socket.on('error', (error) => {
      socketError = error.code ?? error.message;
    });
    socket.on('close', () => {
      const parsed = parseAll(received, { head, closed: true });
      if (parsed.error) return finish('unparsable');
      if (parsed.finals.length > 0) return finish(halfClosed ? 'answered-after-eof' : 'answered');
      finish(socketError && socketError !== 'EPIPE' ? 'reset' : 'closed');
    });
    timer = setTimeout(() => finish('hang'), answerMs); // bound on connecting
    socket.once('connect', async () => {
      if (!timer?.extra) clearTimeout(timer);
      try {
        for (const chunk of chunks) {
          if (settled || socket.destroyed) return;
          if (chunk.delayMs) await sleep(chunk.delayMs);
          if (chunk.waitFor100 && !hundredSeen)
            await Promise.race([new Promise((resolve) => (onHundred = resolve)), sleep(answerMs)]);
          if (settled || socket.destroyed) return;
          if (!socket.write(chunk.data))
            await Promise.race([new Promise((resolve) => socket.once('drain', resolve)), sleep(answerMs)]);
        }
      } catch {
        // the socket went away while writing: 'close' settles the outcome
      }
      if (!settled && !timer?.extra) armAnswerTimer();
    });
  });
}
