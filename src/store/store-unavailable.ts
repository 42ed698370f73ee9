/**
 * The shared store did not answer in time (Redis down, a command held): a fact of the store, not
 * of HTTP. The mock's HTTP layer answers it as a 503 with Retry-After (mock/respond/problems.ts); start-up
 * reports it as a tool error.
 */
export class StoreUnavailable extends Error {
  constructor(
    /** Where the store is (`redis://127.0.0.1:6379/0`), as the message names it. */
    readonly store: string,
    /** What went wrong, in a word or two (`ETIMEDOUT`, `deadline`). */
    readonly reason: string,
  ) {
    super(`The shared store at ${store} did not answer (${reason}); try again shortly`);
    this.name = 'StoreUnavailable';
  }
}
