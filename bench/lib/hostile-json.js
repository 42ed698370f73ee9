// Hostile JSON bodies: prototype keys, deep nesting, wrong types, huge numbers and strings, bad
// UTF-8 and the domain world's durations. Every body is invalid for its endpoint even if the
// hostile part were ignored, so whatever gets through cannot change the store or the world.
import { authHeader, BODY_TARGETS, bodyTarget, deepText, objectText, withPairs } from './hostile-build.js';

const JSON_TYPE = ['Content-Type', 'application/json'];
const PROTO_KEYS = ['__proto__', 'constructor', 'prototype'];
/** `__proto__` spelled with JSON escapes: the same key once parsed, invisible to a text search. */
const ESCAPED_PROTO = '"\\u005f\\u005fproto\\u005f\\u005f"';

/** A POST/PUT/PATCH of `body` (text) to a body target, with its credential and JSON content type. */
function post(ctx, target, body, { contentType = JSON_TYPE[1] } = {}) {
  return {
    method: target.method,
    target: target.path,
    headers: [authHeader(ctx, target.auth), ['Content-Type', contentType]],
    body,
    expect: 'reject',
  };
}

/** `value` without `field`. */
function without(value, field) {
  const { [field]: _dropped, ...rest } = value;
  return rest;
}

/** `__proto__`, `constructor` and `prototype` keys at every depth, and as the only carrier of required fields. */
const protoKeys = [
  (rng, ctx) => {
    const target = rng.pick(BODY_TARGETS);
    const key = rng.pick(PROTO_KEYS);
    return { name: `only-carrier ${key}`, ...post(ctx, target, objectText([[key, JSON.stringify(target.fields)]])) };
  },
  (rng, ctx) => {
    const target = rng.pick(BODY_TARGETS);
    const inner = objectText([['prototype', JSON.stringify(target.fields)]]);
    return { name: 'only-carrier constructor.prototype', ...post(ctx, target, objectText([['constructor', inner]])) };
  },
  (rng, ctx) => {
    const target = rng.pick(BODY_TARGETS);
    return {
      name: 'only-carrier escaped __proto__',
      ...post(ctx, target, `{${ESCAPED_PROTO}:${JSON.stringify(target.fields)}}`),
    };
  },
  (rng, ctx) => {
    const target = rng.pick(BODY_TARGETS);
    const key = rng.pick(PROTO_KEYS);
    const depth = rng.int(1, 40);
    let nested = objectText([[key, JSON.stringify({ polluted: true, status: 'available', isAdmin: true })]]);
    for (let level = 0; level < depth; level += 1) nested = objectText([[rng.pick(['a', 'value', key]), nested]]);
    return { name: `at depth ${key}`, ...post(ctx, target, withPairs(target.broken, [['extra', nested]])) };
  },
  (rng, ctx) => {
    const target = rng.pick(BODY_TARGETS);
    const key = rng.pick(PROTO_KEYS);
    const array = `[${objectText([[key, JSON.stringify(target.fields)]])},{"a":[${objectText([[key, '{}']])}]}]`;
    return { name: `inside arrays ${key}`, ...post(ctx, target, withPairs(target.broken, [['list', array]])) };
  },
  (rng, ctx) => {
    const target = rng.pick(BODY_TARGETS);
    return {
      name: 'top-level array of carriers',
      ...post(ctx, target, `[${objectText([['__proto__', JSON.stringify(target.fields)]])}]`),
    };
  },
  (rng, ctx) => {
    const target = rng.pick(BODY_TARGETS);
    const pairs = PROTO_KEYS.map((key) => [key, JSON.stringify(target.fields)]);
    return { name: 'all three keys, twice', ...post(ctx, target, objectText([...pairs, ...pairs])) };
  },
  (rng, ctx) => {
    const target = bodyTarget('createPet');
    const value = rng.pick(['"__proto__"', '"constructor"', '"toString"', '"hasOwnProperty"']);
    return { name: 'prototype names as values', ...post(ctx, target, `{"name":${value},"categoryId":${value}}`) };
  },
  (rng, ctx) => {
    const target = rng.pick(BODY_TARGETS);
    const key = rng.pick(['toString', 'valueOf', 'hasOwnProperty', '__defineGetter__', 'isPrototypeOf']);
    return {
      name: `Object.prototype method name ${key}`,
      ...post(ctx, target, withPairs(target.broken, [[key, '{"a":1}']])),
    };
  },
];

/** Nesting 1k to 100k levels deep: whole bodies, field values, and behind a `__proto__` key. */
const deepJson = [1_000, 3_000, 10_000, 30_000, 100_000].flatMap((depth) => [
  (rng, ctx) => {
    const kind = rng.pick(['array', 'object', 'mixed']);
    return {
      name: `${depth} levels, whole body (${kind})`,
      ...post(ctx, rng.pick(BODY_TARGETS), deepText(depth, kind)),
    };
  },
  (rng, ctx) => {
    const target = rng.pick(BODY_TARGETS);
    const kind = rng.pick(['array', 'object', 'mixed']);
    const field = Object.keys(target.fields)[0];
    return {
      name: `${depth} levels in a field (${kind})`,
      ...post(ctx, target, withPairs(target.broken, [[field, deepText(depth, kind)]])),
    };
  },
  (rng, ctx) => {
    const target = rng.pick(BODY_TARGETS);
    return {
      name: `${depth} levels under __proto__`,
      ...post(ctx, target, objectText([['__proto__', deepText(depth, 'object')]])),
    };
  },
]);

const WRONG_VALUES = ['null', 'true', '7', '-1', '1.5', '""', '[]', '{}', '["Rex"]', '{"$ne":null}', '"1"', '0.0'];

/** Every field of every body target with values of the wrong type; bodies that are not objects. */
const wrongTypes = [
  (rng, ctx) => {
    const target = rng.pick(BODY_TARGETS);
    const field = rng.pick(Object.keys(target.fields));
    const value = rng.pick(WRONG_VALUES.filter((text) => typeof target.fields[field] !== typeof JSON.parse(text)));
    return {
      name: `field of the wrong type`,
      ...post(ctx, target, withPairs(without(target.broken, field), [[field, value]])),
    };
  },
  (rng, ctx) => {
    const target = rng.pick(BODY_TARGETS);
    return {
      name: 'body not an object',
      ...post(ctx, target, rng.pick(['null', '[]', '"text"', '42', 'true', '[{}]', '""'])),
    };
  },
  (rng, ctx) => {
    const target = bodyTarget('createPet');
    const name = rng.pick(['7', 'null', '["Rex"]', '{"first":"Rex"}', 'false']);
    const categoryId = rng.pick(['"1"', '1.5', 'null', '[1]', '{"id":1}', 'true', '"one"']);
    return { name: 'pet with both fields wrong', ...post(ctx, target, `{"name":${name},"categoryId":${categoryId}}`) };
  },
  (rng, ctx) => {
    const target = rng.pick(BODY_TARGETS);
    return {
      name: 'duplicate keys',
      ...post(
        ctx,
        target,
        withPairs(
          target.broken,
          Object.keys(target.fields).map((key) => [key, 'null']),
        ),
      ),
    };
  },
  (rng, ctx) => ({
    name: 'JSON syntax errors',
    ...post(
      ctx,
      rng.pick(BODY_TARGETS),
      rng.pick([
        '{',
        '{"name":',
        "{'name':'Rex'}",
        '{"a":1,}',
        '{"a" 1}',
        'NaN',
        '{"a":Infinity}',
        '\u0000',
        '{}{}',
        '/* */{}',
      ]),
    ),
  }),
];

const HUGE_NUMBERS = [
  '1e308',
  '1e309',
  '-1e400',
  '123456789012345678901234567890',
  '9223372036854775808',
  '-9223372036854775809',
  '1.0e-400',
  '99999999999999999999',
  '4.2e1000000',
  `1${'0'.repeat(5000)}`,
];

/** Numbers past every limit (int64, double, exponent) wherever a number goes, including path and query. */
const hugeNumbers = [
  (rng, ctx) => {
    const target = bodyTarget('createPet');
    return {
      name: 'categoryId past int64/double',
      ...post(ctx, target, `{"name":"Rex","categoryId":${rng.pick(HUGE_NUMBERS)}}`),
    };
  },
  (rng, ctx) => ({
    name: 'reset seed past every limit',
    ...post(ctx, bodyTarget('reset'), `{"seed":${rng.pick([...HUGE_NUMBERS, '-1', '1.5', '9007199254740992'])}}`),
  }),
  (rng, ctx) => ({
    name: 'record ttl past every limit',
    ...post(
      ctx,
      bodyTarget('addRecord'),
      `{"name":"www.example.com","type":"A","value":"192.0.2.1","ttl":${rng.pick(HUGE_NUMBERS)}}`,
    ),
  }),
  (rng, ctx) => ({
    name: 'CAA flags past every limit',
    ...post(
      ctx,
      bodyTarget('addRecord'),
      `{"name":"example.com","type":"CAA","value":{"flags":${rng.pick(HUGE_NUMBERS)},"tag":"issue","value":"x"}}`,
    ),
  }),
  (rng, ctx) => ({
    name: 'pet id in the path past every limit',
    method: 'GET',
    target: `/v1/pets/${rng.pick(['99999999999999999999999', '9223372036854775808', '1e3', '-1', '0x10', '1.0', '+1', '0', `1${'0'.repeat(400)}`])}`,
    headers: [authHeader(ctx, 'key')],
    expect: 'reject',
  }),
  (rng, ctx) => ({
    name: 'limit past every limit',
    method: 'GET',
    target: `/v1/pets?limit=${rng.pick(['99999999999999999999', '1e2', '-1', '0', '101', '1.5', 'Infinity', 'NaN', '0x10'])}`,
    headers: [authHeader(ctx, 'key')],
    expect: 'reject',
  }),
  (rng, ctx) => ({
    name: 'record id in the path past every limit',
    method: 'GET',
    target: `/__kennel/world/records/${rng.pick(['99999999999999999999999', '-1', '0', '1e400', '9007199254740993'])}`,
    headers: [authHeader(ctx, 'admin')],
    expect: 'reject',
  }),
];

/** Strings of 100 KB to 2 MB in values and keys, and many keys. */
const hugeStrings = [
  (rng, ctx) => {
    const [character, size] = rng.pick([
      ['x', 100_000],
      ['é', 450_000],
      ['🐕', 240_000],
      ['x', 2_000_000],
    ]);
    return {
      name: `pet name of ${size} "${character}", categoryId missing`,
      ...post(ctx, bodyTarget('createPet'), `{"name":"${character.repeat(size)}"}`),
    };
  },
  (rng, ctx) => {
    const target = rng.pick(BODY_TARGETS);
    return {
      name: 'key of 200k characters',
      ...post(ctx, target, withPairs(target.broken, [['k'.repeat(200_000), '1']])),
    };
  },
  (rng, ctx) => {
    const target = rng.pick(BODY_TARGETS);
    const count = rng.pick([10_000, 50_000]);
    const pairs = Array.from({ length: count }, (_, index) => [`k${index}`, '0']);
    return { name: `${count} keys`, ...post(ctx, target, withPairs(target.broken, pairs)) };
  },
  (rng, ctx) => ({
    name: 'domain name of 300+ characters',
    ...post(ctx, bodyTarget('addDomain'), JSON.stringify({ name: `${'a'.repeat(rng.int(254, 5000))}.example.com` })),
  }),
  (rng, ctx) => ({
    name: 'TXT value of 1 MB',
    ...post(
      ctx,
      bodyTarget('addRecord'),
      JSON.stringify({ name: 'example.com', type: 'TXT', value: 'v'.repeat(rng.pick([4001, 900_000])) }),
    ),
  }),
  (rng, ctx) => ({
    name: 'scenario name of 100k characters',
    ...post(ctx, bodyTarget('loadScenario'), JSON.stringify({ name: 'a/'.repeat(50_000) })),
  }),
];

/** Invalid UTF-8 (overlong, truncated, surrogates, stray continuation bytes), BOMs and UTF-16 bodies. */
const badUtf8 = [
  (rng, ctx) => {
    const bytes = rng.pick([
      [0xff, 0xfe],
      [0xc0, 0xaf],
      [0xe0, 0x80, 0xaf],
      [0xed, 0xa0, 0x80],
      [0x80],
      [0xf8, 0x88, 0x80, 0x80, 0x80],
      [0xe2, 0x82],
    ]);
    const body = Buffer.concat([Buffer.from('{"name":"R'), Buffer.from(bytes), Buffer.from('x"}')]);
    return { name: 'invalid UTF-8 in a string (categoryId missing)', ...post(ctx, bodyTarget('createPet'), body) };
  },
  (rng, ctx) => {
    const target = rng.pick(BODY_TARGETS);
    const body = Buffer.concat([Buffer.from('{"'), Buffer.from([0xff, 0xc3]), Buffer.from('":1}')]);
    return { name: 'invalid UTF-8 in a key', ...post(ctx, target, body) };
  },
  (rng, ctx) => ({
    name: 'lone surrogate escapes',
    ...post(
      ctx,
      bodyTarget('createPet'),
      `{"name":"\\ud800${rng.pick(['', '\\udc00\\udc00', 'x'])}","categoryId":"1"}`,
    ),
  }),
  (rng, ctx) => ({
    name: 'UTF-8 BOM before the body',
    ...post(
      ctx,
      rng.pick(BODY_TARGETS),
      Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('{"name":"Rex"}')]),
    ),
  }),
  (rng, ctx) => {
    const charset = rng.pick(['utf-16le', 'utf-16', 'utf-32']);
    // categoryId is a string: invalid even to a server that decodes UTF-16.
    const body = Buffer.from('\ufeff{"name":"Rex","categoryId":"1"}', 'utf16le');
    return {
      name: `UTF-16 body as ${charset}`,
      ...post(ctx, bodyTarget('createPet'), body, { contentType: `application/json; charset=${charset}` }),
    };
  },
  (rng, ctx) => ({
    name: 'raw NUL and control bytes in the body',
    ...post(ctx, rng.pick(BODY_TARGETS), Buffer.from(`{"name":"a\u0000\u0001\u001f","categoryId":"x"}`)),
  }),
  (rng, ctx) => ({
    name: 'invalid UTF-8 in the path',
    method: 'GET',
    target: Buffer.concat([Buffer.from('/v1/pets/'), Buffer.from([0xff, 0xfe])]).toString('latin1'),
    headers: [authHeader(ctx, 'key')],
    expect: 'reject',
  }),
  (_rng, _ctx) => ({
    name: 'invalid UTF-8 in the key',
    method: 'GET',
    target: '/v1/pets',
    headers: [['Authorization', Buffer.concat([Buffer.from('Bearer '), Buffer.from([0xff, 0xfe, 0xc0])])]],
    expect: 'reject',
  }),
];

/** Durations past what a date can hold, and bodies the clock must refuse (the world must keep answering). */
const worldDurations = [
  (rng, ctx) => {
    const by = rng.pick([
      '99999999999999999999d',
      '99999999d',
      '100000000d',
      '9007199254740993ms',
      '8640000000000001ms',
      '2400000000h',
      '144000000000m',
      '9999999999999999999999999999999999999s',
      `${'9'.repeat(400)}d`,
      '1e400d',
      '1.7976931348623157e309ms',
    ]);
    return {
      name: `advance by ${by.length > 30 ? `${by.slice(0, 20)}…` : by}`,
      ...post(ctx, bodyTarget('advanceClock'), JSON.stringify({ by })),
    };
  },
  (rng, ctx) => {
    const by = rng.pick([
      '-1m',
      '1y',
      '1 m',
      'PT1M',
      '',
      'm',
      '1.5.5m',
      '1M',
      '1mm',
      ' 1m',
      '1m ',
      '0x10m',
      '١m',
      '1\u0000m',
    ]);
    return {
      name: `advance by a malformed duration`,
      ...post(ctx, bodyTarget('advanceClock'), JSON.stringify({ by })),
    };
  },
  (rng, ctx) => {
    const by = rng.pick(['60', 'null', '["1m"]', '{"m":1}', 'true', '1e400']);
    return { name: 'advance by a non-string', ...post(ctx, bodyTarget('advanceClock'), `{"by":${by}}`) };
  },
  (rng, ctx) => ({
    name: 'advance by 99999999d repeated',
    ...post(ctx, bodyTarget('advanceClock'), JSON.stringify({ by: '99999999d'.repeat(rng.pick([2, 1000, 50_000])) })),
  }),
];

export const JSON_FAMILIES = [
  { family: 'proto-keys', weight: 3, variants: protoKeys },
  { family: 'deep-json', weight: 2, variants: deepJson },
  { family: 'wrong-types', weight: 2, variants: wrongTypes },
  { family: 'huge-numbers', weight: 2, variants: hugeNumbers },
  { family: 'huge-strings', weight: 1, variants: hugeStrings },
  { family: 'bad-utf8', weight: 2, variants: badUtf8 },
  { family: 'world-durations', weight: 2, variants: worldDurations },
];
