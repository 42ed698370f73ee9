/**
 * The requests chaos keeps waiting (delayed or held): at most `max` at once, and at most half of
 * them for one client, so one client cannot take every slot and refuse everybody else's delays.
 * A client is the API key that authenticated the request, else its remote address.
 */
export class ChaosSlots {
  readonly max: number;
  /** Most slots one client may hold: half of them, at least one. */
  readonly perClient: number;
  #count = 0;
  readonly #byClient = new Map<string, number>();

  constructor(max: number) {
    this.max = max;
    this.perClient = Math.max(1, Math.ceil(max / 2));
  }

  /** Why `client` may not take a slot now (`undefined`: it may). */
  refusal(client: string): string | undefined {
    if (this.#count >= this.max) return `at most ${this.max} requests delayed or held at once`;
    if ((this.#byClient.get(client) ?? 0) >= this.perClient)
      return `at most ${this.perClient} of one client's requests delayed or held at once (of ${this.max} in all)`;
    return undefined;
  }

  /** Takes a slot for `client`; the function returned gives it back (once, however often it is called). */
  take(client: string): () => void {
    this.#count += 1;
    this.#byClient.set(client, (this.#byClient.get(client) ?? 0) + 1);
    let given = false;
    return () => {
      if (given) return;
      given = true;
      this.#count -= 1;
      const left = (this.#byClient.get(client) ?? 1) - 1;
      if (left === 0) this.#byClient.delete(client);
      else this.#byClient.set(client, left);
    };
  }
}
