// Hostile HTTP framing: Transfer-Encoding variants, bad chunks, odd request lines, Host and Expect
// headers. A GET of the pet list (200 when accepted) shows whether the server took a request it
// should have refused; bodies sent to endpoints that change state are invalid whatever the
// framing, so nothing that gets through can change the store.
import { chunkedBody, createPet, INVALID_PET, listPets } from './hostile-build.js';

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
export const FRAMING_FAMILIES = [
  { family: 'transfer-encoding', weight: 2, variants: transferEncoding },
  { family: 'chunk-framing', weight: 2, variants: chunkFraming },
  { family: 'request-line', weight: 2, variants: requestLine },
  { family: 'host-header', weight: 1, variants: hostHeader },
  { family: 'expect', weight: 1, variants: expect },
];
