import { connect } from 'node:net';

/** What came back on one raw connection: the first answer's status, head and body, and all the text. */
export interface RawExchange {
  /** The first answer's status code; 0 when nothing came back. */
  status: number;
  head: string;
  body: string;
  /** Everything the server sent before it closed the connection or the wait ended. */
  text: string;
  /** The server closed the connection (rather than the wait running out). */
  closed: boolean;
  /** Milliseconds from the first byte sent to the end of the wait. */
  ms: number;
}

/**
 * Writes `payload` verbatim to `origin`'s port (no client library to normalise the target or fix
 * the framing) and reads until the server closes the connection or `waitMs` passes.
 */
export function rawExchange(origin: string, payload: string | Buffer, waitMs = 3_000): Promise<RawExchange> {
  const { hostname, port } = new URL(origin);
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const socket = connect(Number(port), hostname);
    let text = '';
    let done = false;
    const finish = (closed: boolean): void => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.destroy();
      const split = text.indexOf('\r\n\r\n');
      const head = split === -1 ? text : text.slice(0, split);
      const body = split === -1 ? '' : text.slice(split + 4);
      const status = /^HTTP\/1\.[01] (\d{3})/.exec(head);
      resolve({ status: status ? Number(status[1]) : 0, head, body, text, closed, ms: performance.now() - started });
    };
    const timer = setTimeout(() => finish(false), waitMs);
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => (text += chunk));
    socket.on('end', () => finish(true));
    socket.on('close', () => finish(true));
    socket.on('error', (error) => (text ? finish(true) : done ? undefined : reject(error)));
    socket.on('connect', () => socket.write(payload));
  });
}

/** The first JSON body of a raw exchange (a body sent with Content-Length), parsed. */
export function rawJson(exchange: RawExchange): unknown {
  const length = /\r\ncontent-length: *(\d+)/i.exec(exchange.head);
  const text = length ? exchange.body.slice(0, Number(length[1])) : exchange.body;
  return JSON.parse(text);
}
