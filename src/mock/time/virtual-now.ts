import type { Clock } from '../../core/clock.js';

/**
 * The mock's "now": the real clock, or a virtual one set with `--now`, `PUT /__kennel/now`. A
 * virtual now keeps running from where it was set (an offset from the real clock), so time
 * passes for a client as it would against the real API on that day.
 */
export class VirtualNow implements Clock {
  readonly #base: Clock;
  #offset: number | undefined;

  constructor(base: Clock, start?: number) {
    this.#base = base;
    if (start !== undefined) this.set(start);
  }

  now(): number {
    return this.#offset === undefined ? this.#base.now() : this.#base.now() + this.#offset;
  }

  /** True when a virtual now is set. */
  get virtual(): boolean {
    return this.#offset !== undefined;
  }

  /** Makes `instant` the current time; it runs on from there. */
  set(instant: number): void {
    this.#offset = instant - this.#base.now();
  }

  /** Back to the real clock. */
  useRealClock(): void {
    this.#offset = undefined;
  }
}
