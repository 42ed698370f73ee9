// `kennel serve --proxy` under attack: bodies smuggled on methods that seldom carry one, every
// spelling of `..` against the base path, an upstream that answers 101, 000, garbage, resets or
// nothing at all, and clients that go away mid-body. A real in-order upstream (node:http, which
// reads a body sent without its length as the next request) records everything it is sent.
import http from 'node:http';
import net from 'node:net';
import { finding, notAnError, rawExchange, requestText } from './raw.js';
import { spawnServe } from './serve-child.js';

const FAMILY = 'proxy';
const SMUGGLED = 'GET /admin HTTP/1.1\r\nHost: x\r\n\r\n';
const METHODS = ['GET', 'HEAD', 'DELETE', 'OPTIONS', 'TRACE'];
const ESCAPES = [
  '/../admin',
  '/v1/../../admin',
  '/%2e%2e/admin',
  '/%2E%2E/admin',
  '/.%2e/admin',
  '/%2e./admin',
  '/v1/%2e%2e/%2e%2e/admin',
  '/..%2fadmin',
  '/v1/..%2F..%2Fadmin',
  '/..%5cadmin',
  '/..\\admin',
  '/v1/%252e%252e/%252e%252e/admin',
  '/./../admin',
  '/v1/pets/..;/../../admin',
];
/** How the upstream fails, by the path's last segment: what kennel must turn into 502 or 504. */
const FAILURES = {
  101: (socket) => socket.end('HTTP/1.1 101 Switching Protocols\r\nUpgrade: evil\r\nConnection: Upgrade\r\n\r\n'),
  '000': (socket) => socket.end('HTTP/1.1 000 OK\r\nContent-Length: 0\r\n\r\n'),
  999: (socket) => socket.end('HTTP/1.1 999 Odd\r\nContent-Length: 0\r\n\r\n'),
  reset: (socket) => socket.resetAndDestroy(),
  close: (socket) => socket.destroy(),
  garbage: (socket) => socket.end('SSH-2.0-OpenSSH\r\n\r\n'),
  'cut-body': (socket) => {
    socket.write('HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n[');
    setTimeout(() => socket.resetAndDestroy(), 50);
  },
  silence: () => {},
  'early-hints': (socket) => socket.write('HTTP/1.1 103 Early Hints\r\nLink: </a>\r\n\r\n'),
  trickle: (socket) => {
    const text = `HTTP/1.1 200 OK\r\nX-Slow: ${'a'.repeat(400)}`;
    let at = 0;
    const timer = setInterval(
      () => (socket.destroyed || at >= text.length ? clearInterval(timer) : socket.write(text[at++])),
      100,
    );
  },
};

/** The upstream: answers `/base/...` with the path it saw; `/base/fail/<mode>` fails as FAILURES says. */
async function startUpstream() {
  const seen = [];
  const server = http.createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      seen.push(request.url);
      const mode = /^\/base\/v1\/fail\/([\w-]+)/.exec(request.url)?.[1];
      if (mode && FAILURES[mode]) return FAILURES[mode](response.socket);
      const body = JSON.stringify({ url: request.url });
      response.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
      response.end(body);
    });
  });
  const sockets = new Set();
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    seen,
    close: () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(resolve);
      }),
  };
}

const outside = (url) => !url.startsWith('/base/');

async function smuggling(kennel, upstream, rounds, findings) {
  let tried = 0;
  for (let round = 0; round < rounds; round += 1)
    for (const method of METHODS) {
      tried += 1;
      await rawExchange(kennel.origin, requestText(method, '/v1/pets', {}, SMUGGLED));
      const next = await rawExchange(kennel.origin, requestText('GET', '/v1/pets'));
      const url = next.status === 200 ? JSON.parse(next.body).url : undefined;
      if (url !== '/base/v1/pets')
        findings.push(
          finding(FAMILY, 'smuggled', method, `the next client got ${next.status} ${next.body.slice(0, 80)}`),
        );
    }
  const chunk = `${SMUGGLED.length.toString(16)}\r\n${SMUGGLED}\r\n0\r\n\r\n`;
  await rawExchange(
    kennel.origin,
    `GET /v1/pets HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n${chunk}`,
  );
  tried += 1;
  return tried;
}

async function escapes(kennel, findings) {
  for (const target of ESCAPES) {
    const answer = await rawExchange(kennel.origin, requestText('GET', target));
    if (answer.status !== 400 || notAnError(answer))
      findings.push(finding(FAMILY, 'escape', target, `answered ${answer.status}: ${answer.body.slice(0, 100)}`));
  }
  return ESCAPES.length;
}

async function failures(kennel, timeoutMs, findings) {
  const latencies = {};
  for (const mode of Object.keys(FAILURES)) {
    const answer = await rawExchange(kennel.origin, requestText('GET', `/v1/fail/${mode}`), timeoutMs * 4);
    latencies[mode] = Math.round(answer.ms);
    const expected = ['silence', 'early-hints', 'trickle'].includes(mode) ? 504 : 502;
    if (answer.status !== expected || notAnError(answer) || answer.ms > timeoutMs * 2 + 1000)
      findings.push(
        finding(
          FAMILY,
          'upstream-failure',
          mode,
          `answered ${answer.status} after ${Math.round(answer.ms)} ms: ${answer.body.slice(0, 100)}`,
        ),
      );
  }
  return latencies;
}

/** Clients that send part of a body and go away, under and past the validation bound. */
async function aborts(kennel, count) {
  const { hostname, port } = new URL(kennel.origin);
  for (let index = 0; index < count; index += 1) {
    const socket = net.connect(Number(port), hostname);
    socket.on('error', () => {});
    await new Promise((resolve) => socket.once('connect', resolve));
    socket.write(
      'POST /v1/pets HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000000\r\n\r\n',
    );
    socket.write(Buffer.alloc(index % 2 === 0 ? 100 : 200 * 1024, 32));
    await new Promise((resolve) => setTimeout(resolve, 30));
    socket.destroy();
  }
  await new Promise((resolve) => setTimeout(resolve, 300));
  return count;
}

/** Runs the family; resolves its figures and findings. */
export async function runProxyFamily({ bin, cwd, profile }) {
  const upstream = await startUpstream();
  const timeoutMs = 1000;
  const args = [
    '--no-world',
    '--log-level',
    'info',
    '--proxy',
    `${upstream.url}/base`,
    '--proxy-timeout',
    String(timeoutMs),
  ];
  const kennel = await spawnServe({ bin, cwd, args });
  const findings = [];
  try {
    if (!kennel.origin) throw new Error(`kennel --proxy did not start: ${kennel.output()}`);
    const smuggleTries = await smuggling(kennel, upstream, profile.rounds, findings);
    const escapeTries = await escapes(kennel, findings);
    const latencies = await failures(kennel, timeoutMs, findings);
    const aborted = await aborts(kennel, profile.aborts);
    const reachedOutside = upstream.seen.filter(outside);
    for (const url of reachedOutside)
      findings.push(finding(FAMILY, 'outside-base', url, 'the upstream got a path outside /base'));
    const health = await rawExchange(kennel.origin, requestText('GET', '/__kennel/health'));
    if (health.status !== 200) findings.push(finding(FAMILY, 'dead', 'health', `health answered ${health.status}`));
    const scanned = kennel.scanned();
    if (scanned.errorLines + scanned.stackLines > 0)
      findings.push(finding(FAMILY, 'log', 'error or stack', scanned.samples[0] ?? ''));
    return {
      tried: smuggleTries + escapeTries + Object.keys(latencies).length + aborted,
      smuggleTries,
      escapeTries,
      upstreamOutside: reachedOutside.length,
      failureLatencyMs: latencies,
      maxFailureMs: Math.max(...Object.values(latencies)),
      timeoutMs,
      aborted,
      log: scanned,
      findings,
    };
  } finally {
    await kennel.stop?.();
    await upstream.close();
  }
}
