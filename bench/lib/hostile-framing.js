// Hostile HTTP framing: Transfer-Encoding variants, bad chunks, odd request lines, Host and Expect
// headers, header injection, content types and encodings, huge bodies, long URLs, percent-encoding
// garbage and unexpected methods. A GET of the pet list (200 when accepted) shows whether the
// server took a request it should have refused; bodies sent to endpoints that change state are
// invalid whatever the framing, so nothing that gets through can change the store.
import { gzipSync } from 'node:zlib';
import { authHeader, BODY_TARGETS, bodyTarget, chunkedBody, withPairs } from './hostile-build.js';

const JSON_TYPE = ['Content-Type', 'application/json'];
const INVALID_PET = '{"name":"Rex","categoryId":"1"}';

/** The pet list with a valid key: 200 means the server accepted whatever else the request carries. */
function listPets(ctx, { headers = [], expect = 'reject', ...rest }) {
  return { method: 'GET', target: '/v1/pets?limit=1', ...rest, headers: [authHeader(ctx, 'key'), ...headers], expect };
}

/** An invalid pet: refused whatever the framing does, so it can never be stored. */
function createPet(ctx, { headers = [], ...rest }) {
  return {
    method: 'POST',
    target: '/v1/pets',
    body: INVALID_PET,
    ...rest,
    headers: [authHeader(ctx, 'key'), JSON_TYPE, ...headers],
    expect: 'reject',
  };
}

/** Rejects a response that carries a header the request tried to inject. */
function noInjectedHeader(response) {
  return Object.keys(response.headers).some((name) => name.startsWith('x-injected'))
    ? 'an injected header came back'
    : undefined;
}

const TE_VARIANTS = [
  ['gzip, chunked', 'reject'],
  ['chunked, identity', 'reject'],
  ['chunked, chunked', 'reject'],
  ['identity', 'reject'],
  ['xchunked', 'reject'],
  ['chunked;q=1', 'reject'],
  ['CHUNKED', 'any'],
  [' chunked', 'any'],
];

/** Transfer-Encoding: codings before and after chunked, duplicates, with Content-Length, on HTTP/1.0. */
const transferEncoding = [
  ...TE_VARIANTS.map(([value, expect]) => (rng, ctx) => {
    const body = chunkedBody(['{"a":', '1}']);
    return rng.chance(0.5)
      ? { name: `TE ${value} on GET`, ...listPets(ctx, { headers: [['Transfer-Encoding', value]], body, expect }) }
      : {
          name: `TE ${value} on POST`,
          ...createPet(ctx, { headers: [['Transfer-Encoding', value]], body: chunkedBody([INVALID_PET]) }),
        };
  }),
  (rng, ctx) => ({
    name: 'two TE headers',
    ...listPets(ctx, {
      headers: [
        ['Transfer-Encoding', 'chunked'],
        ['Transfer-Encoding', rng.pick(['chunked', 'gzip', 'identity'])],
      ],
      body: chunkedBody(['{}']),
    }),
  }),
  (rng, ctx) => ({
    name: 'TE chunked with Content-Length (smuggling)',
    ...listPets(ctx, {
      headers: [
        ['Transfer-Encoding', 'chunked'],
        ['Content-Length', '4'],
      ],
      body: `${chunkedBody([])}GET /v1/pets/999999 HTTP/1.1\r\nHost: ${ctx.hostPort}\r\nAuthorization: Bearer ${ctx.key}\r\n\r\n`,
      contentLength: false,
      extraMs: 150,
    }),
  }),
  (rng, ctx) => ({
    name: 'Content-Length then TE chunked (smuggling)',
    ...listPets(ctx, {
      headers: [
        ['Content-Length', '0'],
        ['Transfer-Encoding', 'chunked'],
      ],
      body: `${chunkedBody([])}`,
      contentLength: false,
      extraMs: 150,
    }),
  }),
  (rng, ctx) => ({
    name: 'TE chunked on HTTP/1.0',
    ...listPets(ctx, {
      version: 'HTTP/1.0',
      headers: [['Transfer-Encoding', 'chunked']],
      body: chunkedBody(['{}']),
      expect: 'any',
    }),
  }),
  (rng, ctx) => ({
    name: 'TE with an empty value',
    ...listPets(ctx, { headers: [['Transfer-Encoding', '']], expect: 'any' }),
  }),
];

/** Chunk sizes that are not hex or overflow, missing CRLFs, data longer than declared, no last chunk. */
const chunkFraming = [
  ...['zz', '-1', '0x10', 'FFFFFFFFFFFFFFFFFF', '1 1', ' 5', '5 ', ''].map((size) => (rng, ctx) => ({
    name: `chunk size ${JSON.stringify(size)}`,
    ...createPet(ctx, { headers: [['Transfer-Encoding', 'chunked']], body: `${size}\r\n${INVALID_PET}\r\n0\r\n\r\n` }),
    framing: 'broken',
  })),
  (rng, ctx) => ({
    name: 'chunk data longer than its size',
    ...createPet(ctx, { headers: [['Transfer-Encoding', 'chunked']], body: `2\r\n${INVALID_PET}\r\n0\r\n\r\n` }),
    framing: 'broken',
  }),
  (rng, ctx) => ({
    name: 'no CRLF after chunk data',
    ...createPet(ctx, {
      headers: [['Transfer-Encoding', 'chunked']],
      body: `${Buffer.byteLength(INVALID_PET).toString(16)}\r\n${INVALID_PET}0\r\n\r\n`,
    }),
    framing: 'broken',
  }),
  (rng, ctx) => ({
    name: 'bare LF chunk lines',
    ...createPet(ctx, {
      headers: [['Transfer-Encoding', 'chunked']],
      body: `${Buffer.byteLength(INVALID_PET).toString(16)}\n${INVALID_PET}\n0\n\n`,
    }),
    framing: 'broken',
  }),
  (rng, ctx) => ({
    name: 'no last chunk',
    ...createPet(ctx, {
      headers: [['Transfer-Encoding', 'chunked']],
      body: chunkedBody([INVALID_PET], { last: false }),
    }),
    framing: 'broken',
  }),
  (rng, ctx) => ({
    name: 'chunk extensions and trailers',
    ...createPet(ctx, {
      headers: [['Transfer-Encoding', 'chunked']],
      body: `${Buffer.byteLength(INVALID_PET).toString(16)};ext="1";x\r\n${INVALID_PET}\r\n0\r\nX-Trailer: 1\r\nContent-Length: 5\r\n\r\n`,
    }),
  }),
  (rng, ctx) => ({
    name: 'a chunk extension of 100 KB',
    ...createPet(ctx, {
      headers: [['Transfer-Encoding', 'chunked']],
      body: `1;${'e'.repeat(100_000)}\r\n{\r\n0\r\n\r\n`,
    }),
    framing: 'broken',
  }),
  (rng, ctx) => ({
    name: '10,000 one-byte chunks',
    ...createPet(ctx, {
      headers: [['Transfer-Encoding', 'chunked']],
      body: chunkedBody(Array.from({ length: 10_000 }, () => ' ').concat([INVALID_PET])),
    }),
  }),
];

/** HTTP/2.0, HTTP/0.9, lower-case methods, absolute- asterisk- and authority-form targets, odd spacing. */
const requestLine = [
  ...['HTTP/2.0', 'HTTP/3.0', 'HTTP/9.9', 'HTTP/1.1.1', 'http/1.1', 'HTTP/1', 'HTTP/01.1', 'HTTP/1.10'].map(
    (version) => (rng, ctx) => ({ name: `version ${version}`, ...listPets(ctx, { version }) }),
  ),
  (rng, ctx) => ({
    name: 'HTTP/0.9 request line',
    ...listPets(ctx, { version: '', host: false, close: false, headers: [] }),
    headers: [],
    framing: 'broken',
  }),
  ...['get', 'Get', 'post', 'GETT', 'G ET'].map((method) => (rng, ctx) => ({
    name: `method ${method}`,
    ...listPets(ctx, { method }),
  })),
  (rng, ctx) => ({ name: 'method of 200 characters', ...listPets(ctx, { method: 'G'.repeat(200) }) }),
  (rng, ctx) => ({
    name: 'absolute-form target',
    ...listPets(ctx, { target: `http://${ctx.hostPort}/v1/pets?limit=1`, expect: 'any' }),
  }),
  (rng, ctx) => ({
    name: 'absolute-form with another host',
    ...listPets(ctx, {
      target: `http://${rng.pick(['evil.example', 'localhost:1', '[::1]'])}/v1/pets?limit=1`,
      expect: 'any',
    }),
  }),
  (rng, ctx) => ({
    name: 'absolute-form with a bad scheme',
    ...listPets(ctx, { target: `${rng.pick(['ftp', 'javascript', 'file'])}://${ctx.hostPort}/v1/pets`, expect: 'any' }),
  }),
  (rng, ctx) => ({
    name: 'asterisk-form OPTIONS',
    ...listPets(ctx, { method: 'OPTIONS', target: '*', expect: 'any' }),
  }),
  (rng, ctx) => ({ name: 'asterisk-form GET', ...listPets(ctx, { target: '*' }) }),
  (rng, ctx) => ({
    name: 'authority-form CONNECT',
    ...listPets(ctx, { method: 'CONNECT', target: rng.pick([ctx.hostPort, 'evil.example:443']) }),
  }),
  (rng, ctx) => ({ name: 'target without a slash', ...listPets(ctx, { target: 'v1/pets' }) }),
  // RFC 9112 §3 lets a server split the request line on any whitespace: these may be taken or refused.
  (rng, ctx) => ({ name: 'two spaces after the method', ...listPets(ctx, { method: 'GET ', expect: 'any' }) }),
  (rng, ctx) => ({
    name: 'tab separators',
    ...listPets(ctx, { method: 'GET\t/v1/pets\tHTTP/1.1\r\nX-Ignored:', target: '', expect: 'any' }),
    framing: 'broken',
  }),
  (rng, ctx) => ({ name: 'bare LF line ends', ...listPets(ctx, { lineEnd: '\n', expect: 'any' }) }),
  (rng, ctx) => ({ name: 'bare CR line ends', ...listPets(ctx, { lineEnd: '\r' }), framing: 'broken' }),
  (_rng, _ctx) => ({
    name: 'HTTP/2 connection preface',
    chunks: [{ data: Buffer.from('PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n') }],
    expect: 'reject',
    framing: 'broken',
    method: 'PRI',
    target: '*',
  }),
  (rng, ctx) => ({
    name: 'empty lines before the request',
    ...listPets(ctx, { method: '\r\n\r\nGET', expect: 'any' }),
  }),
];

/** Two Host headers, none, empty, malformed. */
const hostHeader = [
  (rng, ctx) => ({
    name: 'two Host headers',
    ...listPets(ctx, { headers: [['Host', rng.pick([ctx.hostPort, 'evil.example'])]] }),
  }),
  (rng, ctx) => ({
    name: 'Host and HOST',
    ...listPets(ctx, {
      host: false,
      headers: [
        ['Host', ctx.hostPort],
        ['HOST', 'evil.example'],
      ],
    }),
  }),
  (rng, ctx) => ({ name: 'no Host on HTTP/1.1', ...listPets(ctx, { host: false }) }),
  (rng, ctx) => ({ name: 'empty Host', ...listPets(ctx, { host: '', expect: 'any' }) }),
  (rng, ctx) => ({
    name: 'malformed Host',
    ...listPets(ctx, {
      host: rng.pick(['a b', '[::1', 'x:y:z', 'host/path', 'a@b', '127.0.0.1:99999999']),
      expect: 'any',
    }),
  }),
  (rng, ctx) => ({
    name: 'Host with control characters',
    ...listPets(ctx, { host: rng.pick(['a\x7fb', 'a\x01b', 'a\tb']), expect: 'any' }),
  }),
  (rng, ctx) => ({
    name: 'no Host on HTTP/1.0',
    ...listPets(ctx, { host: false, version: 'HTTP/1.0', expect: 'any' }),
  }),
];

/** Expect: 100-continue (the body sent after the interim answer), unknown expectations. */
const expect = [
  (rng, ctx) => {
    const head = Buffer.from(
      `POST /v1/pets HTTP/1.1\r\nHost: ${ctx.hostPort}\r\nConnection: close\r\nAuthorization: Bearer ${ctx.key}\r\nContent-Type: application/json\r\nExpect: 100-continue\r\nContent-Length: ${INVALID_PET.length}\r\n\r\n`,
    );
    return {
      name: '100-continue, body after the interim 100',
      method: 'POST',
      target: '/v1/pets',
      chunks: [{ data: head }, { data: Buffer.from(INVALID_PET), waitFor100: true }],
      expect: 'reject',
    };
  },
  (rng, ctx) => ({
    name: '100-continue on GET',
    ...listPets(ctx, { headers: [['Expect', '100-continue']], expect: 'any' }),
  }),
  (rng, ctx) => ({
    name: 'unknown Expect',
    ...createPet(ctx, { headers: [['Expect', rng.pick(['foo', '200-ok', '100-continue, foo', 'x'.repeat(1000)])]] }),
  }),
  (rng, ctx) => ({
    name: 'unknown Expect on GET',
    ...listPets(ctx, { headers: [['Expect', rng.pick(['foo', '101-upgrade'])]] }),
  }),
  (rng, ctx) => ({
    name: 'Upgrade: h2c / websocket',
    ...listPets(ctx, {
      headers: [
        ['Connection', 'Upgrade, HTTP2-Settings'],
        ['Upgrade', rng.pick(['h2c', 'websocket', 'HTTP/2.0'])],
        ['HTTP2-Settings', 'AAMAAABkAARAAAAAAAIAAAAA'],
      ],
      expect: 'any',
    }),
  }),
];

/** Bare CR, obs-fold, spaces in names, NUL, lines without a colon, header-splitting through URLs. */
const headerInjection = [
  (rng, ctx) => ({
    name: 'bare CR in a value',
    ...listPets(ctx, { headers: [['X-Note', 'a\rX-Injected: 1']] }),
    framing: 'broken',
  }),
  (rng, ctx) => ({
    name: 'obs-fold continuation',
    ...listPets(ctx, { headers: [['X-Note', 'a\r\n X-Injected: 1']], expect: 'any' }),
    check: noInjectedHeader,
  }),
  (rng, ctx) => ({
    name: 'space in a header name',
    ...listPets(ctx, { headers: [['X Injected', '1']] }),
    framing: 'broken',
  }),
  (rng, ctx) => ({
    name: 'space before the colon',
    ...listPets(ctx, { headers: [['Authorization ', `Bearer ${ctx.key}`]] }),
    framing: 'broken',
  }),
  (rng, ctx) => ({
    name: 'NUL in a value',
    ...listPets(ctx, { headers: [['X-Note', 'a\u0000b']] }),
    framing: 'broken',
  }),
  (rng, ctx) => ({
    name: 'line without a colon',
    ...listPets(ctx, { headers: [['X-Note', '1\r\nno-colon-here']] }),
    framing: 'broken',
  }),
  (rng, ctx) => ({
    name: '3,000 headers',
    ...listPets(ctx, { headers: Array.from({ length: 3000 }, (_, index) => [`X-H${index}`, '1']), expect: 'any' }),
  }),
  (rng, ctx) => ({ name: 'a header of 20 KB', ...listPets(ctx, { headers: [['X-Big', 'b'.repeat(20_000)]] }) }),
  (rng, ctx) => ({
    name: 'CRLF through the path',
    ...listPets(ctx, {
      target: `/v1/pets/1%0d%0aX-Injected:%20yes${rng.pick(['', '%0d%0a%0d%0a<html>'])}`,
      expect: 'reject',
    }),
    check: noInjectedHeader,
  }),
  (rng, ctx) => ({
    name: 'CRLF through the query',
    ...listPets(ctx, { target: '/v1/pets?status=%0d%0aX-Injected:%20yes', expect: 'reject' }),
    check: noInjectedHeader,
  }),
  (rng, ctx) => ({
    name: 'CRLF through Prefer example',
    ...listPets(ctx, { headers: [['Prefer', 'example=a%0d%0aX-Injected: yes']], expect: 'any' }),
    check: noInjectedHeader,
  }),
  (rng, ctx) => ({
    name: 'odd bytes in Origin (CORS echo)',
    ...listPets(ctx, {
      headers: [
        [
          'Origin',
          Buffer.from(
            rng.pick(['http://a\x7f.example', 'http://\xff.example', 'null', `http://${'o'.repeat(8000)}`]),
            'latin1',
          ),
        ],
      ],
      expect: 'any',
    }),
    check: noInjectedHeader,
  }),
  (rng, _ctx) => ({
    name: 'CORS preflight with odd request headers',
    method: 'OPTIONS',
    target: '/v1/pets',
    headers: [
      ['Origin', 'http://a.example'],
      ['Access-Control-Request-Method', rng.pick(['POST', 'get', '\x7f'])],
      ['Access-Control-Request-Headers', rng.pick(['x-injected', 'a'.repeat(5000), ','])],
    ],
    expect: 'any',
  }),
];

/** Content types and charsets that are not JSON in UTF-8, and content codings (one a zip bomb). */
const contentType = [
  ...[
    'text/plain',
    'application/json; charset=latin1',
    'application/json; charset=utf-16',
    'application/x-www-form-urlencoded',
    'multipart/form-data; boundary=x',
    'application/json;;;',
    'application/jsonx',
    '',
    '*/*',
    'application/*',
    'application/json; charset="utf-8"',
    'APPLICATION/JSON',
    'application/merge-patch+json',
    'application/json\u0000',
    `application/json; ${'p=1; '.repeat(2000)}`,
  ].map((type) => (rng, ctx) => {
    const target = rng.pick(BODY_TARGETS);
    return {
      name: `Content-Type ${JSON.stringify(type.slice(0, 40))}`,
      method: target.method,
      target: target.path,
      headers: [authHeader(ctx, target.auth), ['Content-Type', type]],
      body: JSON.stringify(target.broken),
      expect: 'reject',
    };
  }),
  (rng, ctx) => ({ name: 'no Content-Type', ...createPet(ctx, { headers: [] }), headers: [authHeader(ctx, 'key')] }),
  (rng, ctx) => ({
    name: 'two Content-Type headers',
    ...createPet(ctx, { headers: [['Content-Type', 'text/plain']] }),
  }),
  ...['gzip', 'deflate', 'br', 'identity', 'gzip, gzip', 'x-unknown', 'GZIP', 'gzip, identity'].map(
    (coding) => (rng, ctx) => ({
      name: `Content-Encoding ${coding}`,
      ...createPet(ctx, {
        headers: [['Content-Encoding', coding]],
        body: coding.startsWith('gzip') || coding === 'GZIP' ? gzipSync(INVALID_PET) : INVALID_PET,
      }),
    }),
  ),
  (rng, ctx) => ({
    name: 'gzip bomb (50 MB of spaces)',
    ...createPet(ctx, { headers: [['Content-Encoding', 'gzip']], body: gzipBomb() }),
  }),
];

let bomb;
function gzipBomb() {
  bomb ??= gzipSync(Buffer.concat([Buffer.from('{"name":'), Buffer.alloc(50 * 2 ** 20, 0x20), Buffer.from('1}')]), {
    level: 1,
  });
  return bomb;
}

/** Bodies past the size limit: sent, declared and not sent, chunked; Content-Length garbage. */
const hugeBodies = [
  (rng, ctx) => {
    const target = rng.pick(BODY_TARGETS);
    const padding = 'p'.repeat(rng.pick([1_100_000, 2_500_000]));
    return {
      name: 'JSON body past the size limit',
      method: target.method,
      target: target.path,
      headers: [authHeader(ctx, target.auth), JSON_TYPE],
      body: withPairs(target.broken, [['padding', JSON.stringify(padding)]]),
      expect: 'reject',
    };
  },
  (rng, ctx) => ({
    name: 'Content-Length of 10 GB, body not sent',
    ...createPet(ctx, {
      headers: [['Content-Length', String(rng.pick([10 * 2 ** 30, 2 ** 53 - 1, 1_048_577]))]],
      contentLength: false,
    }),
  }),
  (rng, ctx) => ({
    name: 'chunked body past the size limit',
    ...createPet(ctx, {
      headers: [['Transfer-Encoding', 'chunked']],
      body: chunkedBody(Array.from({ length: 40 }, () => 'x'.repeat(64 * 1024))),
    }),
  }),
  ...['99999999999999999999', '-1', '1,1', '0x10', '+5', '5 5', 'abc', ''].map((length) => (rng, ctx) => ({
    name: `Content-Length ${JSON.stringify(length)}`,
    ...createPet(ctx, { headers: [['Content-Length', length]], contentLength: false }),
    framing: 'broken',
  })),
  (rng, ctx) => ({
    name: 'two different Content-Lengths',
    ...createPet(ctx, {
      headers: [
        ['Content-Length', String(INVALID_PET.length)],
        ['Content-Length', '5'],
      ],
      contentLength: false,
    }),
    framing: 'broken',
  }),
  (rng, ctx) => ({
    name: 'body shorter than Content-Length',
    ...createPet(ctx, { headers: [['Content-Length', String(INVALID_PET.length + 100)]], contentLength: false }),
    framing: 'broken',
  }),
  (rng, ctx) => ({
    name: 'body longer than Content-Length (a second request)',
    ...createPet(ctx, { headers: [['Content-Length', '2']], contentLength: false }),
    framing: 'broken',
    extraMs: 150,
  }),
  (rng, ctx) => ({
    name: 'body on GET',
    ...listPets(ctx, { body: 'x'.repeat(rng.pick([10, 2_000_000])), expect: 'any' }),
  }),
];

/** Paths and queries from 4 KB to 100 KB, repeated parameters. */
const longUrls = [
  ...[4_000, 12_000, 20_000, 100_000].map((size) => (rng, ctx) => ({
    name: `path of ${size} bytes`,
    ...listPets(ctx, { target: `/v1/pets/${'1'.repeat(size)}` }),
  })),
  (rng, ctx) => ({
    name: 'query of 5,000 unknown parameters',
    ...listPets(ctx, { target: `/v1/pets?${'x=1&'.repeat(rng.pick([1000, 3500]))}`, expect: 'any' }),
  }),
  (rng, ctx) => ({
    name: 'limit repeated',
    ...listPets(ctx, { target: `/v1/pets?${'limit=1&'.repeat(rng.pick([2, 1000]))}` }),
  }),
  (rng, ctx) => ({ name: 'limit of 5,000 digits', ...listPets(ctx, { target: `/v1/pets?limit=${'1'.repeat(5000)}` }) }),
  (rng, ctx) => ({
    name: 'world name of 10 KB',
    method: 'GET',
    target: `/__kennel/world/domains/${'a.'.repeat(5000)}com`,
    headers: [authHeader(ctx, 'admin')],
    expect: 'reject',
  }),
  (rng, ctx) => ({
    name: 'dns query of a 10 KB name',
    method: 'GET',
    target: `/__kennel/world/dns/query?type=A&name=${'a.'.repeat(5000)}com`,
    headers: [authHeader(ctx, 'admin')],
    expect: 'reject',
  }),
];

const PERCENT = [
  '%',
  '%zz',
  '%FF',
  '%00',
  '%2e%2e%2f%2e%2e%2f__kennel%2freset',
  '%C0%AE%C0%AE',
  '1%2F2',
  '%E0%A4%A',
  '%252e',
  '%u0041',
  '..%2f..%2f',
  '%%30%30',
];

/** Broken and hostile percent-encoding in paths and queries of every API. */
const percentEncoding = [
  (rng, ctx) => ({ name: 'pet id', ...listPets(ctx, { target: `/v1/pets/${rng.pick(PERCENT)}` }) }),
  (rng, ctx) => ({
    name: 'limit or status',
    ...listPets(ctx, { target: `/v1/pets?${rng.pick(['limit', 'status'])}=${rng.pick(PERCENT)}` }),
  }),
  // Unknown parameters are ignored, garbage or not.
  (rng, ctx) => ({
    name: 'unknown parameter',
    ...listPets(ctx, { target: `/v1/pets?${rng.pick(['%', 'a', '%ZZ', '%00'])}=${rng.pick(PERCENT)}`, expect: 'any' }),
  }),
  (rng, ctx) => ({
    name: 'encoded path segment',
    ...listPets(ctx, { target: rng.pick(['/v1/%70ets', '/%761/pets', '/v1/pets%2f1', '/v1/pets/%31']), expect: 'any' }),
  }),
  (rng, ctx) => ({
    name: 'world domain name',
    method: 'GET',
    target: `/__kennel/world/domains/${rng.pick(PERCENT)}`,
    headers: [authHeader(ctx, 'admin')],
    expect: 'reject',
  }),
  (rng, ctx) => ({
    name: 'world DNS query',
    method: 'GET',
    target: `/__kennel/world/dns/query?name=${rng.pick(PERCENT)}&type=${rng.pick(['A', '%41', '%00', 'ANY'])}`,
    headers: [authHeader(ctx, 'admin')],
    expect: 'reject',
  }),
  (rng, ctx) => ({
    name: 'journal limit',
    method: 'GET',
    target: `/__kennel/journal?limit=${rng.pick(PERCENT)}`,
    headers: [authHeader(ctx, 'admin')],
    expect: 'reject',
  }),
  (rng, ctx) => {
    const target = bodyTarget('createPet');
    return {
      name: 'traversal to the admin API',
      method: 'POST',
      target: rng.pick([
        '/v1/pets/..%2F..%2F__kennel%2Freset',
        '/v1/../__kennel/reset',
        '/v1/pets/%2e%2e/%2e%2e/__kennel/reset',
      ]),
      headers: [authHeader(ctx, 'key'), JSON_TYPE],
      body: JSON.stringify(target.broken),
      expect: 'reject',
    };
  },
];

/** Methods no route has, HEAD and OPTIONS, prototype names in paths. */
const methods = [
  ...[
    ['DELETE', '/v1/pets'],
    ['PUT', '/v1/pets/1'],
    ['PATCH', '/v1/pets'],
    ['TRACE', '/v1/pets'],
    ['POST', '/v1/pets/1'],
    ['GET', '/__kennel/reset'],
    ['POST', '/__kennel/journal'],
    ['PROPFIND', '/v1/pets'],
    ['PURGE', '/__kennel/world/state'],
    ['DELETE', '/__kennel/world/state'],
  ].map(([method, target]) => (rng, ctx) => ({
    name: `${method} ${target}`,
    method,
    target,
    headers: [authHeader(ctx, target.startsWith('/v1') ? 'key' : 'admin')],
    expect: 'reject',
  })),
  (rng, ctx) => ({
    name: 'HEAD of the list',
    method: 'HEAD',
    target: '/v1/pets',
    head: true,
    headers: [authHeader(ctx, 'key')],
    expect: 'any',
  }),
  (rng, ctx) => ({
    name: 'DELETE the journal with a wrong token',
    method: 'DELETE',
    target: '/__kennel/journal',
    headers: [['Authorization', `Bearer ${ctx.admin}x`]],
    expect: 'reject',
  }),
  (rng, ctx) => ({
    name: 'prototype names in world paths',
    method: 'GET',
    target: `/__kennel/world/${rng.pick(['domains', 'zones', 'records', 'redirects'])}/${rng.pick(['__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty'])}`,
    headers: [authHeader(ctx, 'admin')],
    expect: 'reject',
  }),
  (rng, ctx) => ({
    name: 'prototype names in world queries',
    method: 'GET',
    target: `/__kennel/world/${rng.pick(['dns/query?name=__proto__&type=constructor', 'dns/query?name=example.com&type=__proto__', 'history?kind=__proto__&subject=constructor', 'site?url=http://__proto__/', 'dns/query?name=example.com&type=A&resolver=__proto__'])}`,
    headers: [authHeader(ctx, 'admin')],
    expect: 'any',
  }),
  (rng, ctx) => ({
    name: 'prototype names as a scenario',
    method: 'POST',
    target: '/__kennel/world/scenario',
    headers: [authHeader(ctx, 'admin'), JSON_TYPE],
    body: JSON.stringify({
      name: rng.pick(['__proto__', 'constructor', 'toString', '../../package', '/etc/passwd', '..\\..\\x']),
    }),
    expect: 'reject',
  }),
  (rng, ctx) => ({
    name: 'odd paths',
    ...listPets(ctx, {
      target: rng.pick([
        '//v1/pets',
        '/v1//pets',
        '/V1/PETS',
        '/v1/pets/',
        '/v1/pets/1/',
        '/v1/pets;x=1',
        '/v1/pets#frag',
        '/./v1/pets',
      ]),
      expect: 'any',
    }),
  }),
];

export const FRAMING_FAMILIES = [
  { family: 'transfer-encoding', weight: 2, variants: transferEncoding },
  { family: 'chunk-framing', weight: 2, variants: chunkFraming },
  { family: 'request-line', weight: 2, variants: requestLine },
  { family: 'host-header', weight: 1, variants: hostHeader },
  { family: 'expect', weight: 1, variants: expect },
  { family: 'header-injection', weight: 2, variants: headerInjection },
  { family: 'content-type', weight: 2, variants: contentType },
  { family: 'huge-bodies', weight: 1, variants: hugeBodies },
  { family: 'long-urls', weight: 1, variants: longUrls },
  { family: 'percent-encoding', weight: 2, variants: percentEncoding },
  { family: 'methods', weight: 1, variants: methods },
];
