// Building blocks of the hostile HTTP requests: raw request bytes, the endpoints that take a JSON
// body (each with a body that is valid except for one field, so a hostile request that gets
// through can never change state), and JSON text written by hand (an object literal with a
// `__proto__` key would set a prototype instead of writing the key).

/** Endpoints with a JSON body. `auth` says whose credential they need; `broken` is invalid on purpose. */
export const BODY_TARGETS = [
  {
    id: 'createPet',
    method: 'POST',
    path: '/v1/pets',
    auth: 'key',
    fields: { name: 'Rex', categoryId: 1 },
    broken: { name: 'Rex', categoryId: 1, status: 'lost' },
  },
  { id: 'reset', method: 'POST', path: '/__kennel/reset', auth: 'admin', fields: { seed: 1 }, broken: { bogus: 1 } },
  {
    id: 'addDomain',
    method: 'POST',
    path: '/__kennel/world/domains',
    auth: 'admin',
    fields: { name: 'docs.example.com' },
    broken: { name: 'docs.example.com', bogus: 1 },
  },
  {
    id: 'addRecord',
    method: 'POST',
    path: '/__kennel/world/records',
    auth: 'admin',
    fields: { name: 'www.example.com', type: 'A', value: '192.0.2.1' },
    broken: { name: 'www.example.com', type: 'A', value: '192.0.2.1', bogus: 1 },
  },
  {
    id: 'addZone',
    method: 'POST',
    path: '/__kennel/world/zones',
    auth: 'admin',
    fields: { apex: 'example.info', provider: 'flexdns' },
    broken: { apex: 'example.info', provider: 'flexdns', bogus: 1 },
  },
  {
    id: 'advanceClock',
    method: 'POST',
    path: '/__kennel/world/clock/advance',
    auth: 'admin',
    fields: { by: '1m' },
    broken: { by: '1m', bogus: 1 },
  },
  {
    id: 'loadScenario',
    method: 'POST',
    path: '/__kennel/world/scenario',
    auth: 'admin',
    fields: { name: 'subdomain-happy-path' },
    broken: { name: 'subdomain-happy-path', bogus: 1 },
  },
  {
    id: 'addRedirect',
    method: 'POST',
    path: '/__kennel/world/redirects',
    auth: 'admin',
    fields: { from: 'a.example.com', to: 'b.example.com' },
    broken: { from: 'a.example.com', to: 'b.example.com', bogus: 1 },
  },
  {
    id: 'setPrimary',
    method: 'PUT',
    path: '/__kennel/world/primary',
    auth: 'admin',
    fields: { name: 'docs.example.com' },
    broken: { name: 'docs.example.com', bogus: 1 },
  },
  {
    id: 'updateProject',
    method: 'PATCH',
    path: '/__kennel/world/project',
    auth: 'admin',
    fields: { plan: 'free' },
    broken: { plan: 'free', bogus: 1 },
  },
  {
    id: 'setZoneFailures',
    method: 'PUT',
    path: '/__kennel/world/zones/example.com/failing',
    auth: 'admin',
    fields: { types: ['A'] },
    broken: { types: ['A'], bogus: 1 },
  },
];

/** The body target with this id. */
export function bodyTarget(id) {
  return BODY_TARGETS.find((target) => target.id === id);
}

/** `Authorization` header for a target's credential. */
export function authHeader(ctx, auth) {
  if (auth === 'key') return ['Authorization', `Bearer ${ctx.key}`];
  if (auth === 'admin') return ['Authorization', `Bearer ${ctx.admin}`];
  return undefined;
}

/** JSON text of an object from [key, jsonText] pairs (keys written as given, duplicates kept). */
export function objectText(pairs) {
  return `{${pairs.map(([key, text]) => `${JSON.stringify(key)}:${text}`).join(',')}}`;
}

/** The JSON text of `value`'s own fields plus extra [key, jsonText] pairs. */
export function withPairs(value, extra) {
  return objectText([...Object.entries(value).map(([key, item]) => [key, JSON.stringify(item)]), ...extra]);
}

/** Nested JSON `depth` levels deep: arrays, objects or both, around `core`. */
export function deepText(depth, kind = 'array', core = '1') {
  if (kind === 'array') return `${'['.repeat(depth)}${core}${']'.repeat(depth)}`;
  if (kind === 'object') return `${'{"a":'.repeat(depth)}${core}${'}'.repeat(depth)}`;
  return `${'[{"a":'.repeat(Math.ceil(depth / 2))}${core}${'}]'.repeat(Math.ceil(depth / 2))}`;
}

/** The JSON content type header. */
export const JSON_TYPE = ['Content-Type', 'application/json'];
/** A pet body that is invalid (categoryId a string) whatever the framing around it. */
export const INVALID_PET = '{"name":"Rex","categoryId":"1"}';

/** The pet list with a valid key: 200 means the server accepted whatever else the request carries. */
export function listPets(ctx, { headers = [], expect = 'reject', ...rest }) {
  return { method: 'GET', target: '/v1/pets?limit=1', ...rest, headers: [authHeader(ctx, 'key'), ...headers], expect };
}

/** An invalid pet: refused whatever the framing does, so it can never be stored. */
export function createPet(ctx, { headers = [], ...rest }) {
  return {
    method: 'POST',
    target: '/v1/pets',
    body: INVALID_PET,
    ...rest,
    headers: [authHeader(ctx, 'key'), JSON_TYPE, ...headers],
    expect: 'reject',
  };
}

/**
 * Raw request bytes. `headers` are [name, value] pairs written as given (Buffers allowed);
 * `host` (true: the server's authority) and `Connection: close` come first unless turned off;
 * `Content-Length` is added for a body unless `contentLength: false` or a Transfer-Encoding
 * header is present. `lineEnd` replaces CRLF everywhere (bare LF or CR).
 */
export function rawRequest(ctx, spec) {
  const {
    method = 'GET',
    target = '/',
    version = 'HTTP/1.1',
    headers = [],
    body,
    host = true,
    close = true,
    contentLength = true,
    lineEnd = '\r\n',
  } = spec;
  const lines = [];
  const all = [];
  if (host === true) all.push(['Host', ctx.hostPort]);
  else if (typeof host === 'string') all.push(['Host', host]);
  if (close) all.push(['Connection', 'close']);
  all.push(...headers.filter(Boolean));
  const hasTe = all.some(([name]) => String(name).toLowerCase() === 'transfer-encoding');
  const bodyBuffer = body === undefined ? undefined : Buffer.isBuffer(body) ? body : Buffer.from(body, 'utf8');
  if (bodyBuffer && contentLength && !hasTe) all.push(['Content-Length', String(bodyBuffer.length)]);
  const requestLine = version === '' ? `${method} ${target}` : `${method} ${target} ${version}`;
  lines.push(Buffer.from(`${requestLine}${lineEnd}`, 'latin1'));
  for (const [name, value] of all)
    lines.push(
      Buffer.concat([
        Buffer.from(`${name}: `, 'latin1'),
        Buffer.isBuffer(value) ? value : Buffer.from(String(value), 'utf8'),
        Buffer.from(lineEnd, 'latin1'),
      ]),
    );
  lines.push(Buffer.from(lineEnd, 'latin1'));
  if (bodyBuffer) lines.push(bodyBuffer);
  return Buffer.concat(lines);
}

/** A chunked body from parts (strings), with a last chunk unless `last` is false. */
export function chunkedBody(parts, { last = true } = {}) {
  const chunks = parts.map((part) => `${Buffer.byteLength(part).toString(16)}\r\n${part}\r\n`).join('');
  return `${chunks}${last ? '0\r\n\r\n' : ''}`;
}

/** A printable one-line preview of bytes (latin1 escapes for what is not printable ASCII). */
export function preview(buffer, max = 160) {
  const text = buffer.subarray(0, max).toString('latin1');
  const shown = text.replace(/[\x00-\x1f\x7f-\xff\\]/g, (character) => {
    if (character === '\r') return '\\r';
    if (character === '\n') return '\\n';
    if (character === '\\') return '\\\\';
    return `\\x${character.charCodeAt(0).toString(16).padStart(2, '0')}`;
  });
  return buffer.length > max ? `${shown}… (${buffer.length} bytes)` : shown;
}
