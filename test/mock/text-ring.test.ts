import { describe, expect, it } from 'vitest';
import { TextRing } from '../../src/mock/admin/text-ring.js';

/** The texts a ring holds, oldest first. */
const textsOf = (ring: TextRing): string[] => Array.from({ length: ring.size }, (_, offset) => ring.textAt(offset));

describe('TextRing', () => {
  it('keeps texts first in, first out, and hands out each slot once at a time', () => {
    const ring = new TextRing(3);
    const slots = ['a', 'bé', 'c'].map((text) => ring.push([text]));
    expect(new Set(slots).size).toBe(3);
    expect(ring.full).toBe(true);
    expect(() => ring.push(['d'])).toThrow(/full/);
    ring.shift();
    ring.push(['d']);
    expect(textsOf(ring)).toEqual(['bé', 'c', 'd']);
    expect(ring.slotAt(2)).toBe(slots[0]);
  });

  it('agrees with a plain queue over many texts of every size, across wrap-arounds and growth', () => {
    const ring = new TextRing(50);
    const model: string[] = [];
    let state = 7;
    const next = (below: number): number => {
      state = (state * 1103515245 + 12345) % 2 ** 31;
      return state % below;
    };
    for (let step = 0; step < 5000; step += 1) {
      const drop = next(3) === 0 || ring.full;
      if (drop && model.length > 0) {
        ring.shift();
        model.shift();
      }
      // Mostly short texts, now and then one far larger than the store so far; some multi-byte.
      const length = next(20) === 0 ? 20_000 + next(100_000) : next(3000);
      const text = `${step}:${(next(2) === 0 ? 'x' : 'ü').repeat(length)}`;
      // In parts now and then: the ring writes them one after another, as one text.
      const cut = next(2) === 0 ? text.length : next(text.length + 1);
      ring.push([text.slice(0, cut), text.slice(cut)]);
      model.push(text);
      if (step % 97 === 0) expect(textsOf(ring)).toEqual(model);
    }
    expect(textsOf(ring)).toEqual(model);
  });

  it('agrees with a plain queue when texts of 1- to 4-byte characters end right at the bounds of the store', () => {
    const ring = new TextRing(8);
    const model: string[] = [];
    const characters = ['x', 'ü', '€', '😀', ''];
    let state = 11;
    const next = (below: number): number => {
      state = (state * 1103515245 + 12345) % 2 ** 31;
      return state % below;
    };
    for (let step = 0; step < 20_000; step += 1) {
      if ((next(2) === 0 || ring.full) && model.length > 0) {
        ring.shift();
        model.shift();
      }
      // Around the 64 KB first store: some pushes end exactly at its end or at the oldest text.
      const length = next(4) === 0 ? 16_380 + next(8) : next(40);
      const character = characters[next(characters.length)]!;
      const text = character.repeat(length);
      // Between characters: half a surrogate pair is no text UTF-8 can keep.
      const cut = character.length * next(length + 1);
      ring.push([text.slice(0, cut), text.slice(cut)]);
      model.push(text);
      if (step % 101 === 0) expect(textsOf(ring)).toEqual(model);
    }
    expect(textsOf(ring)).toEqual(model);
  });

  it('clear() forgets every text', () => {
    const ring = new TextRing(2);
    ring.push(['a']);
    ring.clear();
    expect(ring.size).toBe(0);
    ring.push(['b']);
    expect(textsOf(ring)).toEqual(['b']);
  });
});
