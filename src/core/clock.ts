/** Where time comes from: pure modules get a Clock, never `Date.now()`. */
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
}

/** A clock that moves only when told: 48 virtual hours take no real time. */
export class ManualClock implements Clock {
  #now: number;

  constructor(start: number) {
    this.#now = start;
  }

  now(): number {
    return this.#now;
  }

  advance(ms: number): void {
    if (!(ms >= 0)) throw new RangeError(`cannot move a clock back (${ms} ms)`);
    this.#now += ms;
  }
}
