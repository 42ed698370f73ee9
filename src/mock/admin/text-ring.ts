/** Smallest store a first push allocates; it doubles as the kept texts need. */
const FIRST_STORE_BYTES = 64 * 1024;

/**
 * A first-in first-out queue of texts kept as UTF-8 in one growable byte store, for a server that
 * keeps its last few hundred exchanges under load. Kept as JavaScript objects, each exchange
 * outlives a young-generation collection, so every collection copies them and V8 grows the young
 * generation to the maximum (about 30 MB of RSS under load). Bytes outside the JavaScript heap are
 * no work for the garbage collector and leave the young generation as small as a server that keeps
 * nothing.
 */
export class TextRing {
  readonly #slots: number;
  readonly #starts: Float64Array;
  readonly #lengths: Float64Array;
  #store: Buffer = Buffer.alloc(0);
  #head = 0;
  #count = 0;
  /** Where the newest text ends in the store. */
  #tail = 0;

  /** `slots` is the most texts kept at once. */
  constructor(slots: number) {
    this.#slots = Math.max(0, slots);
    this.#starts = new Float64Array(this.#slots);
    this.#lengths = new Float64Array(this.#slots);
  }

  get size(): number {
    return this.#count;
  }

  get full(): boolean {
    return this.#count >= this.#slots;
  }

  /**
   * Appends the text `parts` make, one after another, as the newest and returns its slot; the
   * caller shifts first when `full`. Parts are written as they are, never joined into one string.
   */
  push(parts: readonly string[]): number {
    if (this.full) throw new Error('TextRing.push on a full ring: shift first');
    const start = this.#count === 0 ? 0 : this.#tail;
    let length = this.#appended(parts, start);
    if (length === undefined) {
      length = 0;
      for (const part of parts) length += Buffer.byteLength(part, 'utf8');
      let at = this.#placeFor(length);
      for (const part of parts) at += this.#store.write(part, at, 'utf8');
      return this.#keep(at - length, length);
    }
    return this.#keep(start, length);
  }

  /**
   * Writes `parts` after the newest text (at `start`) when they fit before the oldest or the end
   * of the store, and answers their length; undefined when they may not have fit. Most pushes
   * fit, and then the texts are measured by writing them, not once more beforehand.
   */
  #appended(parts: readonly string[], start: number): number | undefined {
    const oldest = this.#count === 0 ? this.#store.length : this.#starts[this.#head]!;
    const end = this.#count > 0 && start <= oldest ? oldest : this.#store.length;
    let at = start;
    for (const part of parts) {
      const room = end - at;
      const written = this.#store.write(part, at, room, 'utf8');
      // A write cut short leaves fewer bytes than the next character needs (at most 4).
      if (written > room - 4) return undefined;
      at += written;
    }
    return at - start;
  }

  #keep(start: number, length: number): number {
    const slot = (this.#head + this.#count) % this.#slots;
    this.#starts[slot] = start;
    this.#lengths[slot] = length;
    this.#count += 1;
    this.#tail = start + length;
    return slot;
  }

  /** Forgets the oldest text. */
  shift(): void {
    if (this.#count === 0) return;
    this.#head = (this.#head + 1) % this.#slots;
    this.#count -= 1;
  }

  /** The slot of the text `offset` places after the oldest. */
  slotAt(offset: number): number {
    return (this.#head + offset) % this.#slots;
  }

  /** The text `offset` places after the oldest. */
  textAt(offset: number): string {
    const slot = this.slotAt(offset);
    const start = this.#starts[slot]!;
    return this.#store.toString('utf8', start, start + this.#lengths[slot]!);
  }

  clear(): void {
    this.#head = 0;
    this.#count = 0;
    this.#tail = 0;
  }

  /** Where `length` bytes go without overwriting a kept text: after the newest, at the start, or in a larger store. */
  #placeFor(length: number): number {
    if (this.#count === 0) this.#tail = 0;
    const oldest = this.#count === 0 ? this.#store.length : this.#starts[this.#head]!;
    const wrapped = this.#count > 0 && this.#tail <= oldest;
    if (wrapped) {
      if (oldest - this.#tail >= length) return this.#tail;
    } else {
      if (this.#store.length - this.#tail >= length) return this.#tail;
      if (oldest >= length) return 0;
    }
    this.#grow(length);
    return this.#tail;
  }

  /** Copies the kept texts, oldest first, to the start of a store with room for `length` more bytes. */
  #grow(length: number): void {
    let kept = 0;
    for (let offset = 0; offset < this.#count; offset += 1) kept += this.#lengths[this.slotAt(offset)]!;
    // Twice what is kept always leaves room for the next text, wherever the newest ends.
    const store = Buffer.allocUnsafe(Math.max(FIRST_STORE_BYTES, 2 * (kept + length)));
    let at = 0;
    for (let offset = 0; offset < this.#count; offset += 1) {
      const slot = this.slotAt(offset);
      const start = this.#starts[slot]!;
      this.#store.copy(store, at, start, start + this.#lengths[slot]!);
      this.#starts[slot] = at;
      at += this.#lengths[slot]!;
    }
    this.#store = store;
    this.#tail = at;
  }
}
