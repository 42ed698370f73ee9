import { describe, expect, it } from 'vitest';
import { parseQuery } from '../../src/mock/request/query.js';

describe('parseQuery', () => {
  it.each([
    ['', {}],
    ['limit=2', { limit: '2' }],
    ['limit=1&limit=2&limit=3', { limit: ['1', '2', '3'] }],
    ['a=&b', { a: '', b: '' }],
    ['status=sold&x=%E2%9C%93+y', { status: 'sold', x: '✓ y' }],
    ['%ZZ=1', { '%ZZ': '1' }],
  ])('%j', (text, expected) => {
    expect(parseQuery(text)).toEqual(expected);
  });

  it('keeps __proto__ and constructor as ordinary parameters', () => {
    const query = parseQuery('__proto__=x&constructor=y&__proto__=z');
    expect(Object.getPrototypeOf(query)).toBe(Object.prototype);
    expect(Object.keys(query)).toEqual(['__proto__', 'constructor']);
    expect(Object.getOwnPropertyDescriptor(query, '__proto__')?.value).toEqual(['x', 'z']);
  });

  it('reads thousands of repeated and distinct parameters', () => {
    const query = parseQuery(`${'x=1&'.repeat(3000)}${Array.from({ length: 3000 }, (_, i) => `k${i}=${i}`).join('&')}`);
    expect((query.x as string[]).length).toBe(3000);
    expect(query.k2999).toBe('2999');
  });
});
