import { describe, expect, it } from 'vitest';
import { coerceParameter } from '../../src/openapi/parameter-value.js';

const integer = { type: 'integer' };
describe('coerceParameter', () => {
  it.each([
    ['20', integer, 20],
    ['-3', integer, -3],
    ['9223372036854775807', integer, 9223372036854775807n],
    ['1.5', { type: 'number' }, 1.5],
    ['true', { type: 'boolean' }, true],
    ['sold', { type: 'string', enum: ['sold'] }, 'sold'],
    ['a,b', { type: 'array', items: { type: 'string' } }, ['a', 'b']],
  ])('coerces %s (case %#)', (raw, schema, value) => {
    expect(coerceParameter(raw, schema, false)).toEqual({ ok: true, value });
  });

  it.each([
    ['abc', integer, 'must be integer'],
    ['1.5', integer, 'must be integer'],
    ['', integer, 'must be integer'],
    [' 5', integer, 'must be integer'],
    ['yes', { type: 'boolean' }, 'must be boolean'],
  ])('rejects %j as %j', (raw, schema, message) => {
    const result = coerceParameter(raw, schema, false);
    expect(result.ok).toBe(false);
    expect(!result.ok && result.message).toContain(message);
  });

  it('refuses repeated values for a scalar parameter and accepts them for an exploded array', () => {
    expect(coerceParameter(['1', '2'], integer, true)).toEqual({
      ok: false,
      message: 'must be given once (got 2 values)',
    });
    expect(coerceParameter(['1', '2'], { type: 'array', items: integer }, true)).toEqual({ ok: true, value: [1, 2] });
  });

  it('reads integers exactly on both sides of the digits a number holds', () => {
    const read = (text: string) => (coerceParameter(text, integer, false) as { value: unknown }).value;
    expect(read('999999999999999')).toBe(999999999999999);
    expect(read('9007199254740991')).toBe(9007199254740991);
    expect(read('-9007199254740991')).toBe(-9007199254740991);
    expect(read('9007199254740993')).toBe(9007199254740993n);
    expect(read('-9007199254740993')).toBe(-9007199254740993n);
    expect(read('0000000000000000007')).toBe(7);
    expect(Object.is(read('-0'), 0)).toBe(true);
  });
});
