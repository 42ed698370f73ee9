import { describe, expect, it } from 'vitest';
import { exactNumbers, findPrototypeKey, mayHoldPrototypeKey, parseJson, stringifyJson } from '../../src/core/json.js';

describe('parseJson / stringifyJson', () => {
  it.each([
    ['9007199254740993', 9007199254740993n],
    ['9223372036854775807', 9223372036854775807n],
    ['-9223372036854775808', -9223372036854775808n],
    ['12', 12],
    ['1.5', 1.5],
    ['1e2', 100],
  ])('keeps %s exact', (text, expected) => {
    const parsed = parseJson(text);
    expect(parsed).toMatchObject({ ok: true, value: expected });
  });

  it('round-trips big integers digit for digit', () => {
    const parsed = parseJson('{"a":[9223372036854775807,1]}');
    expect(parsed.ok && stringifyJson(parsed.value)).toBe('{"a":[9223372036854775807,1]}');
  });

  it('writes what JSON.stringify writes when there is no bigint, and still refuses a cycle', () => {
    const value = {
      id: 1,
      name: 'Rex',
      tags: ['a', null],
      nested: { at: 1.5, raw: JSON.rawJSON('12345678901234567890') },
    };
    expect(stringifyJson(value)).toBe(JSON.stringify(value));
    expect(stringifyJson({ deep: [{ big: 2n ** 70n }] })).toBe('{"deep":[{"big":1180591620717411303424}]}');
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(() => stringifyJson(cyclic)).toThrow(TypeError);
  });

  it.each([
    ['{"a":}', 'value expected at line 1, column 6 (offset 5)'],
    ['{"a":', 'value expected at line 1, column 6 (offset 5)'],
    ['{"a":1,}', 'property name expected at line 1, column 8 (offset 7)'],
    ['{\n  "a": 1\n  "b": 2\n}', 'comma expected at line 3, column 3 (offset 13)'],
    ["{'a':1}", 'invalid symbol at line 1, column 2 (offset 1)'],
    ['// note\n{}', 'invalid comment token at line 1, column 1 (offset 0)'],
    ['[1] x', 'invalid symbol at line 1, column 5 (offset 4)'],
  ])('locates the syntax error in %j', (text, message) => {
    expect(parseJson(text)).toEqual({ ok: false, message });
  });
});

describe('exactNumbers', () => {
  it('maps in-range bigints to numbers and out-of-int64 ones beyond ±2^63', () => {
    expect(exactNumbers({ a: 9223372036854775807n, b: [-9223372036854775809n], c: 'x' })).toEqual({
      a: 2 ** 63,
      b: [-(2 ** 64)],
      c: 'x',
    });
    expect(exactNumbers(9223372036854775808n)).toBe(2 ** 64);
  });
});

describe('nesting depth', () => {
  const objects = (levels: number) => `${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`;
  const arrays = (levels: number) => `${'['.repeat(levels)}${']'.repeat(levels)}`;

  it.each([
    ['objects', objects],
    ['arrays', arrays],
  ])('accepts %s nested exactly to the limit and refuses one level more, saying where', (_kind, nest) => {
    expect(parseJson(nest(100)).ok).toBe(true);
    const refused = parseJson(nest(101));
    expect(refused).toMatchObject({ ok: false });
    expect(!refused.ok && refused.message).toMatch(
      /^nesting deeper than 100 levels at line 1, column \d+ \(offset \d+\)$/,
    );
  });

  it('refuses 100,000 levels without overflowing the stack', () => {
    expect(parseJson(arrays(100_000))).toMatchObject({ ok: false });
  });

  it('does not count brackets inside strings, escaped quotes included', () => {
    const text = `{"a":"${'[{'.repeat(200)}\\"${'['.repeat(200)}"}`;
    expect(parseJson(text)).toMatchObject({ ok: true });
  });

  it('takes a smaller limit', () => {
    expect(parseJson('[[1]]', 1)).toMatchObject({ ok: false, message: expect.stringContaining('column 2') });
  });
});

describe('__proto__ keys', () => {
  it.each([
    ['{"__proto__":{"name":"x"}}', '/__proto__'],
    ['{"a":[1,{"b":{"__proto__":null}}]}', '/a/1/b/__proto__'],
    ['{"__pro\\u0074o__":1}', '/__proto__'],
    ['{"a/b":{"__proto__":1}}', '/a~1b/__proto__'],
  ])('finds the one in %s at %s', (text, pointer) => {
    const parsed = parseJson(text);
    expect(mayHoldPrototypeKey(text)).toBe(true);
    expect(parsed.ok && findPrototypeKey(parsed.value)).toBe(pointer);
  });

  it('finds none where there is none', () => {
    const parsed = parseJson('{"proto":{"constructor":{"prototype":1}},"x":["__proto__"]}');
    expect(parsed.ok && findPrototypeKey(parsed.value)).toBeUndefined();
    expect(mayHoldPrototypeKey('{"name":"Rex"}')).toBe(false);
  });

  it('exactNumbers keeps a __proto__ key as an own field, never as the prototype', () => {
    const parsed = parseJson('{"__proto__":{"name":"x","id":9007199254740993}}');
    const copy = exactNumbers(parsed.ok && parsed.value) as Record<string, unknown>;
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect(copy.name).toBeUndefined();
    expect(Object.keys(copy)).toEqual(['__proto__']);
    expect(Object.getOwnPropertyDescriptor(copy, '__proto__')?.value).toEqual({ name: 'x', id: 9007199254740992 });
  });
});

describe('numbers that are not integers stay non-integers', () => {
  it.each([
    ['1.0e-400', Number.MIN_VALUE],
    ['-1.0e-400', -Number.MIN_VALUE],
    ['1e-99999999999', Number.MIN_VALUE],
    ['0.50000000000000001e1', 5 + 2 ** -50],
    ['0.49999999999999999e1', 5 - 2 ** -50],
    ['-0.50000000000000001e1', -5 - 2 ** -50],
    ['4503599627370495.5', 4503599627370495.5],
  ])('%s reads as %s, which no validator takes for an integer', (text, expected) => {
    const parsed = parseJson(text);
    expect(parsed).toMatchObject({ ok: true, value: expected });
    expect(Number.isInteger(parsed.ok && parsed.value)).toBe(false);
  });

  it.each([
    ['1e300', 10n ** 300n],
    ['9007199254740993.0', 9007199254740993n],
    ['123456789012345678900000000000e-10', 12345678901234567890n],
    ['1.0', 1],
    ['1e2', 100],
    ['0e5', 0],
    ['-0.0', -0],
    ['12.50e1', 125],
  ])('%s is an integer written another way, kept exact', (text, expected) => {
    expect(parseJson(text)).toMatchObject({ ok: true, value: expected });
  });

  it('a fraction beyond 2^52, where every double is an integer, reads as the nearest double', () => {
    expect(parseJson('4503599627370497.5')).toMatchObject({ ok: true, value: 4503599627370498 });
  });
});

describe('which numbers need the exact reading', () => {
  it.each([
    ['{"a":1,"b":[1.5,-2],"c":"1e999 9007199254740993"}', false],
    ['{"ok":true,"no":false}', false],
    ['{"a":123456789012345}', false],
    ['{"a":1234567890123456}', true],
    ['{"a":12345678.000000001}', true],
    ['{"a":1e2}', true],
    ['{"a":2.5E-3}', true],
  ])('%s: may hold bigints %s', (text, delicate) => {
    expect(parseJson(text)).toMatchObject({ ok: true, mayHoldBigInt: delicate });
  });

  it('reads an integer written with a long fraction as the non-integer it is', () => {
    const parsed = parseJson('{"a":12345678.000000001}');
    expect(Number.isInteger(parsed.ok && (parsed.value as { a: number }).a)).toBe(false);
  });
});
