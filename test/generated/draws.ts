import { Random } from '../../src/core/random.js';

/**
 * Seeded choices for the document generator. Every decision point forks its own stream by name,
 * so switching one feature off leaves the other choices of the same seed as they were: that is
 * what lets the harness shrink a disagreement to the fewest features.
 */
export class Draws {
  readonly #seed: number;
  readonly #label: string;
  readonly #random: Random;

  constructor(seed: number, label = '') {
    this.#seed = seed >>> 0;
    this.#label = label;
    this.#random = new Random(hash(`${this.#seed}:${label}`));
  }

  /** An independent stream for one decision point (`resource 1 / key`), whatever was drawn before. */
  fork(label: string): Draws {
    return new Draws(this.#seed, `${this.#label}/${label}`);
  }

  /** A float in [0, 1). */
  next(): number {
    return this.#random.next();
  }

  chance(probability: number): boolean {
    return this.#random.next() < probability;
  }

  int(min: number, max: number): number {
    return this.#random.int(min, max);
  }

  pick<T>(items: readonly T[]): T {
    return this.#random.pick(items);
  }

  /** Up to `count` distinct items, in their original order. */
  some<T>(items: readonly T[], count: number): T[] {
    const chosen = new Set<number>();
    while (chosen.size < Math.min(count, items.length)) chosen.add(this.int(0, items.length - 1));
    return items.filter((_item, index) => chosen.has(index));
  }

  word(length: number): string {
    return this.#random.word(length);
  }
}

/** FNV-1a over the label: a stable 32-bit seed for each named stream. */
function hash(text: string): number {
  let value = 0x811c9dc5;
  for (let index = 0; index < text.length; index += 1) {
    value ^= text.charCodeAt(index);
    value = Math.imul(value, 0x01000193) >>> 0;
  }
  return value;
}
