// Well-formed requests to the server under test (node:http, keep-alive, always with a time-out):
// snapshots of the store, canaries between hostile families, writers, the soak and speed loops.
import http from 'node:http';

/** A client of one origin; `close()` ends its keep-alive sockets. */
export function apiClient(origin, { maxSockets = 32, timeoutMs = 5000 } = {}) {
  const agent = new http.Agent({ keepAlive: true, maxSockets });
  const send = (method, path, { headers = {}, body, timeout = timeoutMs } = {}) =>
    new Promise((resolve, reject) => {
      const req = http.request(`${origin}${path}`, { method, headers, agent, timeout }, (res) => {
        const chunks = [];
        res.on('data', (chunk) => chunks.push(chunk));
        res.on('end', () =>
          resolve({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }),
        );
        res.on('error', reject);
      });
      req.on('timeout', () =>
        req.destroy(Object.assign(new Error(`timed out after ${timeout} ms`), { code: 'TIMEOUT' })),
      );
      req.on('error', reject);
      req.end(body);
    });
  return {
    get: (path, headers, options) => send('GET', path, { headers, ...options }),
    post: (path, json, headers = {}, options) =>
      send('POST', path, {
        headers: { 'content-type': 'application/json', ...headers },
        body: typeof json === 'string' ? json : JSON.stringify(json),
        ...options,
      }),
    send,
    close: () => agent.destroy(),
  };
}

/** Bearer header object. */
export function bearer(secret) {
  return { authorization: `Bearer ${secret}` };
}

/** Runs `worker(item)` over `items` with at most `limit` in flight; resolves the results in order. */
export async function pool(items, limit, worker) {
  const results = new Array(items.length);
  let next = 0;
  const lanes = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) {
      const index = next;
      next += 1;
      results[index] = await worker(items[index], index);
    }
  });
  await Promise.all(lanes);
  return results;
}
