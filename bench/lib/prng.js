// A small seeded PRNG (sfc32 seeded through splitmix32): the reliability suite's generators draw
// every choice from one of these, so `--seed N` replays the same requests and packets.

function splitmix32(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x9e3779b9) >>> 0;
    let z = state;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
    return (z ^ (z >>> 16)) >>> 0;
  };
}

/** A seeded random source with the helpers the generators need. */
export class Prng {
  #a;
  #b;
  #c;
  #d;

  constructor(seed) {
    const mix = splitmix32(seed);
    this.#a = mix();
    this.#b = mix();
    this.#c = mix();
    this.#d = mix();
  }

  /** A 32-bit unsigned integer. */
  next32() {
    const t = (((this.#a + this.#b) >>> 0) + this.#d) >>> 0;
    this.#d = (this.#d + 1) >>> 0;
    this.#a = this.#b ^ (this.#b >>> 9);
    this.#b = (this.#c + (this.#c << 3)) >>> 0;
    this.#c = ((this.#c << 21) | (this.#c >>> 11)) >>> 0;
    this.#c = (this.#c + t) >>> 0;
    return t;
  }

  /** A float in [0, 1). */
  float() {
    return this.next32() / 2 ** 32;
  }

  /** An integer in [min, max] (both included). */
  int(min, max) {
    return min + Math.floor(this.float() * (max - min + 1));
  }

  chance(probability) {
    return this.float() < probability;
  }

  pick(items) {
    return items[Math.floor(this.float() * items.length)];
  }

  bytes(length) {
    const out = Buffer.allocUnsafe(length);
    for (let index = 0; index < length; index += 1) out[index] = this.next32() & 0xff;
    return out;
  }

  /** Lower-case letters and digits. */
  word(length) {
    const alphabet = 'abcdefghijklmnopqrstuvwxyz0123456789';
    let text = '';
    for (let index = 0; index < length; index += 1) text += alphabet[this.next32() % alphabet.length];
    return text;
  }

  /** A child generator: its own stream, so one generator's draws do not shift another's. */
  fork(label) {
    let hash = this.next32();
    for (const character of String(label)) hash = Math.imul(hash ^ character.charCodeAt(0), 0x01000193) >>> 0;
    return new Prng(hash);
  }
}
