// Slow clients: slowloris connections that send one more header line every few seconds and never
// finish their headers, and slow bodies that trickle one byte at a time. The server must drop them
// within a bound; the figures say how many it dropped and after how long.
import net from 'node:net';
import { parseResponse } from './raw-http.js';

function slowConnection({ host, port, hostPort, key, kind, intervalMs }) {
  const connection = { kind, openedAt: performance.now(), closedAt: undefined, status: undefined, sentLines: 0 };
  const socket = net.connect({ host, port });
  let received = Buffer.alloc(0);
  let ticker;
  socket.on('error', () => undefined);
  socket.on('data', (chunk) => {
    received = Buffer.concat([received, chunk]);
    const parsed = parseResponse(received, 0, { closed: false });
    if (parsed.response) connection.status = parsed.response.status;
  });
  socket.on('close', () => {
    clearInterval(ticker);
    connection.closedAt ??= performance.now();
    if (connection.status === undefined) {
      const parsed = parseResponse(received, 0, { closed: true });
      connection.status = parsed.response?.status;
    }
  });
  socket.on('connect', () => {
    connection.openedAt = performance.now();
    if (kind === 'headers') socket.write(`GET /v1/pets HTTP/1.1\r\nHost: ${hostPort}\r\n`);
    else
      socket.write(
        `POST /v1/pets HTTP/1.1\r\nHost: ${hostPort}\r\nAuthorization: Bearer ${key}\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{`,
      );
    ticker = setInterval(() => {
      if (socket.destroyed) return clearInterval(ticker);
      connection.sentLines += 1;
      socket.write(kind === 'headers' ? `X-Slow-${connection.sentLines}: ${'a'.repeat(10)}\r\n` : ' ');
    }, intervalMs);
  });
  connection.destroy = () => {
    clearInterval(ticker);
    socket.destroy();
  };
  return connection;
}

/**
 * Opens `count` slowloris connections and `bodies` slow-body ones (authorised with `key`, so the
 * server has to read the body) (a line or byte every
 * `intervalMs`). `stop()` destroys what is still open and resolves, per kind, {opened, dropped,
 * droppedWithinBound, stillOpen, maxHeldMs, statuses}.
 */
export function startSlowClients({ host, port, hostPort, key, count, bodies, intervalMs, boundMs }) {
  const connections = [
    ...Array.from({ length: count }, () => slowConnection({ host, port, hostPort, key, kind: 'headers', intervalMs })),
    ...Array.from({ length: bodies }, () => slowConnection({ host, port, hostPort, key, kind: 'body', intervalMs })),
  ];
  const startedAt = performance.now();
  return {
    startedAt,
    /** True once every connection has been dropped by the server. */
    allDropped: () => connections.every((connection) => connection.closedAt !== undefined),
    stop: async () => {
      const stoppedAt = performance.now();
      for (const connection of connections) if (connection.closedAt === undefined) connection.destroy();
      const summary = {};
      for (const kind of ['headers', 'body']) {
        const mine = connections.filter((connection) => connection.kind === kind);
        const dropped = mine.filter(
          (connection) => connection.closedAt !== undefined && connection.closedAt <= stoppedAt,
        );
        const held = dropped.map((connection) => connection.closedAt - connection.openedAt);
        const statuses = {};
        for (const connection of dropped)
          statuses[connection.status ?? 'none'] = (statuses[connection.status ?? 'none'] ?? 0) + 1;
        summary[kind] = {
          opened: mine.length,
          dropped: dropped.length,
          droppedWithinBound: held.filter((ms) => ms <= boundMs).length,
          stillOpen: mine.length - dropped.length,
          maxHeldMs: held.length ? Math.max(...held) : undefined,
          observedMs: stoppedAt - startedAt,
          statuses,
        };
      }
      return summary;
    },
  };
}
