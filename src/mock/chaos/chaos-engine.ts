import type { Clock } from '../../core/clock.js';
import { Random } from '../../core/random.js';
import { MAX_LATENCY_MS, type ChaosSettings, type Fault, type Latency } from './chaos-types.js';

/** What chaos does to one request: a delay first, then at most one fault. */
export interface ChaosDecision {
  delayMs: number;
  fault: Fault | undefined;
  /** Why: `rule 2` (1-based, in table order) or `Prefer`; for the journal and messages. */
  cause: string;
  /** For a rate-limit fault: whole seconds until the caller's window reopens (`Retry-After`). */
  retryAfterS?: number;
}

/** Most callers whose rate-limit windows are remembered; the oldest is forgotten first. */
const MAX_CALLERS = 1000;

interface Window {
  start: number;
  count: number;
}

/**
 * The chaos table at run time: decides, request by request, the delay and the fault. Every draw
 * comes from one PRNG seeded from the table's seed, so the same sequence of requests meets the
 * same delays and faults; replacing the table starts the sequence again. Rate-limit windows are
 * counted per rule and caller on `clock` (the real one: a virtual "now" that jumps must not
 * empty or fill them).
 */
export class ChaosEngine {
  readonly #defaultSeed: number;
  readonly #clock: Clock;
  #settings: ChaosSettings = { rules: [] };
  #random: Random;
  readonly #windows = new Map<string, Window>();

  constructor(settings: ChaosSettings, defaultSeed: number, clock: Clock) {
    this.#defaultSeed = defaultSeed;
    this.#clock = clock;
    this.#random = new Random(defaultSeed);
    this.replace(settings);
  }

  /** False when the table is empty: the mock then skips chaos entirely. */
  get active(): boolean {
    return this.#settings.rules.length > 0;
  }

  /** The table in its canonical form, with the seed in use. */
  get settings(): Required<Omit<ChaosSettings, 'maxHeld'>> {
    return { seed: this.#settings.seed ?? this.#defaultSeed, rules: this.#settings.rules };
  }

  /** Puts a new table in place; the draws and the rate-limit windows start afresh. */
  replace(settings: ChaosSettings): void {
    this.#settings = { ...settings, rules: [...settings.rules] };
    this.#random = new Random(settings.seed ?? this.#defaultSeed);
    this.#windows.clear();
  }

  /**
   * Every matching rule that fires (by its probability) adds its delay; the first one with a
   * fault decides the fault. Undefined when nothing happens to this request.
   */
  decide(operationId: string, caller: string): ChaosDecision | undefined {
    let delayMs = 0;
    let decision: Pick<ChaosDecision, 'fault' | 'cause' | 'retryAfterS'> | undefined;
    const causes: string[] = [];
    this.#settings.rules.forEach((rule, index) => {
      if (rule.match !== '*' && rule.match !== operationId) return;
      if (rule.probability < 1 && !(this.#random.next() < rule.probability)) return;
      const cause = `rule ${index + 1}`;
      if (rule.latency) {
        delayMs += this.#sample(rule.latency);
        causes.push(cause);
      }
      if (rule.fault?.kind === 'rate-limit') {
        const retryAfterS = this.#overLimit(`${index}\u0000${caller}`, rule.fault.limit, rule.fault.windowMs);
        if (retryAfterS !== undefined && !decision) decision = { fault: rule.fault, cause, retryAfterS };
      } else if (rule.fault && !decision) decision = { fault: rule.fault, cause };
    });
    if (delayMs === 0 && !decision) return undefined;
    if (decision && !causes.includes(decision.cause)) causes.push(decision.cause);
    return { delayMs: Math.min(delayMs, MAX_LATENCY_MS), fault: undefined, ...decision, cause: causes.join(', ') };
  }

  #sample(latency: Latency): number {
    const random = this.#random;
    let ms: number;
    if (latency.kind === 'fixed') ms = latency.ms;
    else if (latency.kind === 'uniform') ms = latency.minMs + random.next() * (latency.maxMs - latency.minMs);
    else if (latency.kind === 'exponential') ms = -latency.meanMs * Math.log(1 - random.next());
    else {
      // Box-Muller: two uniform draws make one standard normal one.
      const u1 = 1 - random.next();
      const u2 = random.next();
      ms = latency.meanMs + latency.sdMs * Math.sqrt(-2 * Math.log(u1)) * Math.cos(2 * Math.PI * u2);
    }
    return Math.round(Math.min(Math.max(ms, 0), MAX_LATENCY_MS));
  }

  /** Counts the request in its fixed window; the seconds to wait when it is over the limit. */
  #overLimit(key: string, limit: number, windowMs: number): number | undefined {
    const now = this.#clock.now();
    let window = this.#windows.get(key);
    if (!window || now >= window.start + windowMs) {
      this.#windows.delete(key);
      if (this.#windows.size >= MAX_CALLERS) this.#windows.delete(this.#windows.keys().next().value!);
      window = { start: now, count: 0 };
      this.#windows.set(key, window);
    }
    window.count += 1;
    if (window.count <= limit) return undefined;
    return Math.max(1, Math.ceil((window.start + windowMs - now) / 1000));
  }
}
