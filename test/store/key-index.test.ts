import { describe, expect, it } from 'vitest';
import { KeyIndex } from '../../src/store/key-index.js';

describe('KeyIndex', () => {
  it('keeps integer keys, their non-canonical twins and other keys apart', () => {
    const index = new KeyIndex<string>();
    for (const key of ['1', '2', '01', '0', '00', '-1', '1.0', 'abc', '1e3', ' 1', '']) index.set(key, `v${key}`);
    for (const key of ['1', '2', '01', '0', '00', '-1', '1.0', 'abc', '1e3', ' 1', ''])
      expect(index.get(key)).toBe(`v${key}`);
    expect(index.get('3')).toBeUndefined();
    expect(index.get('001')).toBeUndefined();
    expect(index.delete('1')).toBe(true);
    expect([index.get('1'), index.get('01')]).toEqual([undefined, 'v01']);
    expect(index.delete('1')).toBe(false);
    expect(index.delete('01')).toBe(true);
    expect(index.has('01')).toBe(false);
  });

  it('finds a key placed far ahead, and keeps one value once the sequence reaches it', () => {
    const index = new KeyIndex<number>();
    index.set('100000', 1);
    index.set('999999999', 2);
    index.set('1000000000', 3);
    for (let key = 0; key < 100_200; key += 1) if (key !== 100_000) index.set(String(key), -key);
    expect(index.get('100000')).toBe(1);
    index.set('100000', 4);
    expect(index.get('100000')).toBe(4);
    expect(index.delete('100000')).toBe(true);
    expect(index.get('100000')).toBeUndefined();
    expect([index.get('999999999'), index.get('1000000000'), index.get('100199')]).toEqual([2, 3, -100_199]);
  });

  it('keeps its array no larger than twice its integer keys, however far apart a client picks them', () => {
    const index = new KeyIndex<number>();
    for (let step = 1; step <= 2000; step += 1) index.set(String(step * 500), step);
    for (let step = 1; step <= 2000; step += 1) expect(index.get(String(step * 500))).toBe(step);
    expect(index.denseSlots).toBeLessThan(2 * 2000);
    const sequence = new KeyIndex<number>();
    for (let key = 1; key <= 5000; key += 1) sequence.set(String(key), key);
    expect(sequence.denseSlots).toBe(5001);
  });

  it('forgets everything on clear', () => {
    const index = new KeyIndex<number>();
    index.set('1', 1);
    index.set('x', 2);
    index.clear();
    expect([index.get('1'), index.get('x'), index.has('1')]).toEqual([undefined, undefined, false]);
  });
});
