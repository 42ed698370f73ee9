// Hostile headers and targets: header injection, content types and encodings, huge bodies, long
// URLs, percent-encoding garbage and unexpected methods. Bodies sent to endpoints that change
// state are invalid whatever else happens, so nothing that gets through can change the store.
import { gzipSync } from 'node:zlib';
import {
  authHeader,
  BODY_TARGETS,
  bodyTarget,
  chunkedBody,
  createPet,
  INVALID_PET,
  JSON_TYPE,
  listPets,
  withPairs,
} from './hostile-build.js';

/** Rejects a response that carries a header the request tried to inject. */
function noInjectedHeader(response) {
  return Object.keys(response.headers).some((name) => name.startsWith('x-injected'))
    ? 'an injected header came back'
    : undefined;
}

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

export const HEADER_FAMILIES = [
  { family: 'header-injection', weight: 2, variants: headerInjection },
  { family: 'content-type', weight: 2, variants: contentType },
  { family: 'huge-bodies', weight: 1, variants: hugeBodies },
  { family: 'long-urls', weight: 1, variants: longUrls },
  { family: 'percent-encoding', weight: 2, variants: percentEncoding },
  { family: 'methods', weight: 1, variants: methods },
];
