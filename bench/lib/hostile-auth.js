// Hostile credentials and per-request controls: odd Authorization spellings (right and wrong keys
// and admin tokens), keys sent where they do not belong (query string, custom headers, cookies:
// they must never come back or reach the journal and the log), `Prefer` garbage, journal queries.
import { authHeader, bodyTarget } from './hostile-build.js';

/** Where a credential is checked: the pet API (keys), the admin API and the world (admin token). */
const PROTECTED = [
  { target: '/v1/pets?limit=1', secret: 'key' },
  { target: '/__kennel/journal?limit=1', secret: 'admin' },
  { target: '/__kennel/world/state', secret: 'admin' },
];

/** Spellings of a right credential: RFC 9110 makes the scheme case-insensitive; any may be refused. */
const RIGHT_SPELLINGS = [
  (secret) => `bearer ${secret}`,
  (secret) => `BEARER ${secret}`,
  (secret) => `Bearer  ${secret}`,
  (secret) => `Bearer ${secret} `,
  (secret) => `Bearer\t${secret}`,
  (secret) => ` Bearer ${secret}`,
];

/** Spellings of a wrong credential built from a right one: every one must be refused. */
const WRONG_SPELLINGS = [
  (secret) => secret,
  (secret) => `Basic ${Buffer.from(`${secret}:`).toString('base64')}`,
  (secret) => `Basic ${Buffer.from(`user:${secret}`).toString('base64')}`,
  (secret) => `Basic ${secret}`,
  (secret) => `Bearer ${secret.slice(0, -1)}`,
  (secret) => `Bearer ${secret}x`,
  (secret) => `Bearer ${secret.toUpperCase()}`,
  (secret) => `Bearer ${secret}, Bearer ${secret}`,
  (secret) => `Bearer "${secret}"`,
  (secret) => `Bearer ${secret}\u200b`,
  (secret) => `Bearer=${secret}`,
  (secret) => `Token ${secret}`,
  (secret) => `Bearer ${Buffer.from(secret).toString('base64')}`,
  () => 'Bearer',
  () => 'Bearer ',
  () => `Bearer ${'k'.repeat(10_000)}`,
  () => 'Digest username="a", realm="kennel", nonce="1", uri="/", response="0"',
  () => 'Negotiate YII=',
];

function secretOf(ctx, which) {
  return which === 'key' ? ctx.key : ctx.admin;
}

/** Right and wrong spellings of keys and admin tokens on every protected API. */
const authorization = [
  (rng, ctx) => {
    const where = rng.pick(PROTECTED);
    const spelling = rng.pick(RIGHT_SPELLINGS);
    return {
      name: `right ${where.secret}, odd spelling`,
      method: 'GET',
      target: where.target,
      headers: [['Authorization', spelling(secretOf(ctx, where.secret))]],
      expect: 'any',
    };
  },
  (rng, ctx) => {
    const where = rng.pick(PROTECTED);
    const spelling = rng.pick(WRONG_SPELLINGS);
    return {
      name: `wrong ${where.secret} spelling`,
      method: 'GET',
      target: where.target,
      headers: [['Authorization', spelling(secretOf(ctx, where.secret))]],
      expect: 'reject',
    };
  },
  (rng, ctx) => {
    const where = rng.pick(PROTECTED);
    const other = where.secret === 'key' ? ctx.admin : ctx.key;
    return {
      name: `the other kind of credential`,
      method: 'GET',
      target: where.target,
      headers: [['Authorization', `Bearer ${other}`]],
      expect: 'reject',
    };
  },
  (rng, ctx) => {
    const where = rng.pick(PROTECTED);
    const right = `Bearer ${secretOf(ctx, where.secret)}`;
    const pair = rng.chance(0.5) ? [right, 'Bearer wrong'] : ['Bearer wrong', right];
    return {
      name: 'two Authorization headers',
      method: 'GET',
      target: where.target,
      headers: pair.map((value) => ['Authorization', value]),
      expect: 'any',
    };
  },
  (rng, _ctx) => ({
    name: 'no credential',
    method: 'GET',
    target: rng.pick(PROTECTED).target,
    headers: [],
    expect: 'reject',
  }),
  (rng, ctx) => {
    const target = bodyTarget(rng.pick(['createPet', 'reset', 'addDomain', 'advanceClock']));
    const spelling = rng.pick(WRONG_SPELLINGS);
    return {
      name: `wrong credential on ${target.id}`,
      method: target.method,
      target: target.path,
      headers: [
        ['Authorization', spelling(target.auth === 'key' ? ctx.key : ctx.admin)],
        ['Content-Type', 'application/json'],
      ],
      body: JSON.stringify(target.broken),
      expect: 'reject',
    };
  },
];

/** Keys and tokens in the query string, custom headers, cookies and URLs: never echoed, journaled or logged. */
const secrets = [
  (rng, ctx) => {
    const where = rng.pick(PROTECTED);
    const name = rng.pick(['api_key', 'apiKey', 'access_token', 'token', 'key', 'auth']);
    const secret = secretOf(ctx, where.secret);
    const withAuth = rng.chance(0.5);
    return {
      name: `${where.secret} in the query (${withAuth ? 'and' : 'no'} Authorization)`,
      method: 'GET',
      target: `${where.target}${where.target.includes('?') ? '&' : '?'}${name}=${encodeURIComponent(secret)}`,
      headers: withAuth ? [authHeader(ctx, where.secret)] : [],
      expect: withAuth ? 'any' : 'reject',
    };
  },
  (rng, ctx) => {
    const where = rng.pick(PROTECTED);
    const name = rng.pick([
      'X-Api-Key',
      'X-Auth-Token',
      'X-Admin-Token',
      'Api-Key',
      'X-Access-Token',
      'Proxy-Authorization',
      'X-Forwarded-Authorization',
    ]);
    const secret = secretOf(ctx, rng.pick(['key', 'admin']));
    const value = name.includes('Authorization') ? `Bearer ${secret}` : secret;
    return {
      name: `secret in ${name}`,
      method: 'GET',
      target: where.target,
      headers: [authHeader(ctx, where.secret), [name, value]],
      expect: 'any',
    };
  },
  (rng, ctx) => {
    const where = rng.pick(PROTECTED);
    const secret = secretOf(ctx, rng.pick(['key', 'admin']));
    const cookie = rng.pick([`s=${secret}; x`, `session=${secret}`, `a=1; token=${secret}; b=2`, `${secret}`]);
    return {
      name: 'secret in a cookie',
      method: 'GET',
      target: where.target,
      headers: [['Cookie', cookie]],
      expect: 'any',
    };
  },
  (rng, ctx) => {
    const where = rng.pick(PROTECTED);
    return {
      name: 'credential without a scheme (echo check)',
      method: 'GET',
      target: where.target,
      headers: [['Authorization', secretOf(ctx, where.secret)]],
      expect: 'reject',
    };
  },
  (rng, ctx) => {
    const where = rng.pick(PROTECTED);
    const secret = secretOf(ctx, where.secret);
    return {
      name: 'secret as URL userinfo (absolute-form)',
      method: 'GET',
      target: `http://user:${encodeURIComponent(secret)}@${ctx.hostPort}${where.target}`,
      headers: [],
      expect: 'any',
    };
  },
  (rng, ctx) => {
    const secret = secretOf(ctx, rng.pick(['key', 'admin']));
    const [name, value] = rng.pick([
      ['Referer', `http://app.example/?token=${secret}`],
      ['X-Forwarded-For', secret],
      ['User-Agent', `agent ${secret}`],
      ['Prefer', `example=${secret}`],
    ]);
    return {
      name: `secret in ${name}`,
      method: 'GET',
      target: '/v1/pets?limit=1',
      headers: [authHeader(ctx, 'key'), [name, value]],
      expect: 'any',
    };
  },
  (rng, ctx) => {
    const secret = secretOf(ctx, rng.pick(['key', 'admin']));
    return {
      name: 'secret in a path segment',
      method: 'GET',
      target: rng.pick([`/v1/pets/${secret}`, `/__kennel/world/domains/${secret}.example.com`, `/${secret}`]),
      headers: [authHeader(ctx, 'admin')],
      expect: 'reject',
    };
  },
];

const PREFER_VALUES = [
  'code=999',
  'code=500',
  'code=503',
  'code=abc',
  'code=',
  'code=1e3',
  'code=-404',
  'code=0404',
  'code=200, code=404',
  'example=__proto__',
  'example=constructor',
  'example=toString',
  'example=',
  'dynamic=maybe',
  'dynamic',
  ';;;,,,',
  `code=${'4'.repeat(1000)}`,
  'example="unterminated',
  'code=404; example=nope',
  'respond-async, wait=99999999999',
  'code=201',
  'code=401',
  'code=１２３',
];

/** `Prefer` garbage on every pet operation (and a broken body with it). */
const prefer = [
  (rng, ctx) => ({
    name: `Prefer on the list`,
    method: 'GET',
    target: '/v1/pets',
    headers: [authHeader(ctx, 'key'), ['Prefer', rng.pick(PREFER_VALUES)]],
    expect: 'any',
  }),
  (rng, ctx) => ({
    name: `Prefer on a pet`,
    method: 'GET',
    target: `/v1/pets/${rng.pick([1, 999999])}`,
    headers: [authHeader(ctx, 'key'), ['Prefer', rng.pick(PREFER_VALUES)]],
    expect: 'any',
  }),
  (rng, ctx) => ({
    name: `Prefer on a broken create`,
    method: 'POST',
    target: '/v1/pets',
    headers: [
      authHeader(ctx, 'key'),
      ['Content-Type', 'application/json'],
      ['Prefer', rng.pick(PREFER_VALUES.filter((value) => !value.startsWith('code=2')))],
    ],
    body: '{"name":7}',
    expect: 'any',
  }),
  (rng, _ctx) => ({
    name: 'Prefer without a key',
    method: 'GET',
    target: '/v1/pets',
    headers: [['Prefer', rng.pick(['code=200', 'code=500', 'example=two-pets'])]],
    expect: 'reject',
  }),
  (rng, ctx) => ({
    name: 'two Prefer headers',
    method: 'GET',
    target: '/v1/pets',
    headers: [authHeader(ctx, 'key'), ['Prefer', 'code=404'], ['Prefer', 'code=500']],
    expect: 'any',
  }),
  (rng, ctx) => ({
    name: 'Prefer on the world',
    method: 'GET',
    target: '/__kennel/world/state',
    headers: [authHeader(ctx, 'admin'), ['Prefer', rng.pick(PREFER_VALUES)]],
    expect: 'any',
  }),
];

/** The admin API's reset and journal with odd queries and bodies (bodies never valid: a reset would change the store). */
const adminApi = [
  (rng, ctx) => ({
    name: 'journal limit',
    method: 'GET',
    target: `/__kennel/journal?limit=${rng.pick(['-1', '0', '1e9', 'abc', '99999999999999999999', '', '1&limit=2', '1.5', ' 1'])}`,
    headers: [authHeader(ctx, 'admin')],
    expect: 'any',
  }),
  (rng, ctx) => {
    const body = rng.pick([
      '{"seed":"1"}',
      '{"apiKey":""}',
      '{"apiKey":7}',
      '{"seed":1,"apiKey":"x"}',
      '[]',
      '"reset"',
      '{"seed":null}',
      '{"apiKey":["a"]}',
      '{"scope":"all"}',
    ]);
    return {
      name: 'reset with a bad body',
      method: 'POST',
      target: '/__kennel/reset',
      headers: [authHeader(ctx, 'admin'), ['Content-Type', 'application/json']],
      body,
      expect: 'reject',
    };
  },
  (rng, ctx) => ({
    name: 'reset with an unknown tenant',
    method: 'POST',
    target: '/__kennel/reset',
    headers: [authHeader(ctx, 'admin'), ['Content-Type', 'application/json']],
    body: JSON.stringify({ apiKey: rng.pick(['__proto__', 'constructor', 'nobody', 'x'.repeat(10_000)]) }),
    expect: 'any',
  }),
  (rng, _ctx) => ({
    name: 'health with odd queries',
    method: 'GET',
    target: `/__kennel/health?${rng.pick(['__proto__[x]=1', 'a[b][c]=1', '%=', 'x'.repeat(8000)])}`,
    headers: [],
    expect: 'any',
  }),
];

export const AUTH_FAMILIES = [
  { family: 'authorization', weight: 3, variants: authorization },
  { family: 'secrets', weight: 2, variants: secrets },
  { family: 'prefer', weight: 2, variants: prefer },
  { family: 'admin-api', weight: 1, variants: adminApi },
];
