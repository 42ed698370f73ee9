import { describe, expect, it } from 'vitest';
import { exactNumbers, parseJson, stringifyJson } from '../../src/core/json.js';

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
    expect(parsed).toEqual({ ok: true, value: expected });
  });

  it('round-trips big integers digit for digit', () => {
    const parsed = parseJson('{"a":[9223372036854775807,1]}');
    expect(parsed.ok && stringifyJson(parsed.value)).toBe('{"a":[9223372036854775807,1]}');
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
