/**
 * How far past the dense part a key may land and still be placed there: V8 keeps an array's
 * elements as a plain backing store while it grows by less than 1,024 at a time.
 */
const DENSE_GAP = 512;
/** Keys of more digits are never placed densely (at most 999,999,999: a small integer). */
const MAX_DENSE_DIGITS = 9;
const DIGIT_0 = 0x30;
const DIGIT_9 = 0x39;

/**
 * A collection's items by key. Keys that are canonical decimal integers near the ones already
 * kept (`1`, `2`, `3`… as the store's own sequence issues them) sit in an array at their number;
 * every other key (`007`, a UUID, a user name, an integer far ahead) sits in a Map. A Map of a
 * hundred thousand keys, each a string made afresh for every create, cost a create about a
 * microsecond in cache misses to look a new key up (docs/decisions/hot-path.md); the array's
 * next slot is where the last one was written.
 */
export class KeyIndex<V> {
  #dense: (V | undefined)[] = [];
  /** Items in the dense part: it grows only while at least half of it would be filled. */
  #denseCount = 0;
  readonly #sparse = new Map<string, V>();

  /** Slots the dense part takes (memory that grows with the keys, not with the items). */
  get denseSlots(): number {
    return this.#dense.length;
  }

  get(key: string): V | undefined {
    const index = denseIndex(key);
    if (index >= 0 && index < this.#dense.length) {
      const found = this.#dense[index];
      if (found !== undefined) return found;
    }
    return this.#sparse.size === 0 ? undefined : this.#sparse.get(key);
  }

  has(key: string): boolean {
    return this.get(key) !== undefined;
  }

  set(key: string, value: V): void {
    const index = denseIndex(key);
    if (index >= 0 && this.#fitsDensely(index)) {
      if (this.#dense[index] === undefined) this.#denseCount += 1;
      this.#dense[index] = value;
      // Placed sparsely while the dense part was shorter: one place per key.
      if (this.#sparse.size > 0) this.#sparse.delete(key);
      return;
    }
    this.#sparse.set(key, value);
  }

  delete(key: string): boolean {
    const index = denseIndex(key);
    if (index >= 0 && index < this.#dense.length && this.#dense[index] !== undefined) {
      // Not `delete`: a hole punched that way can turn the array into a dictionary.
      this.#dense[index] = undefined;
      this.#denseCount -= 1;
      return true;
    }
    return this.#sparse.delete(key);
  }

  clear(): void {
    this.#dense = [];
    this.#denseCount = 0;
    this.#sparse.clear();
  }

  /**
   * A slot already there, or one a little past the end while the dense part stays at least half
   * full: keys a client picks 500 apart would otherwise grow the array by 500 slots an item,
   * kilobytes no store budget counts.
   */
  #fitsDensely(index: number): boolean {
    const length = this.#dense.length;
    return index < length || (index <= length + DENSE_GAP && index < 2 * this.#denseCount + DENSE_GAP);
  }
}

/** The number a canonical decimal integer key names (no sign, no leading zero), or -1. */
function denseIndex(key: string): number {
  const length = key.length;
  if (length === 0 || length > MAX_DENSE_DIGITS) return -1;
  let value = 0;
  for (let offset = 0; offset < length; offset += 1) {
    const code = key.charCodeAt(offset);
    if (code < DIGIT_0 || code > DIGIT_9) return -1;
    value = value * 10 + (code - DIGIT_0);
  }
  return length > 1 && key.charCodeAt(0) === DIGIT_0 ? -1 : value;
}
