/** How long an injected delay lasts: always, within a range, or drawn from a distribution. */
export type Latency =
  | { kind: 'fixed'; ms: number }
  | { kind: 'uniform'; minMs: number; maxMs: number }
  | { kind: 'normal'; meanMs: number; sdMs: number }
  | { kind: 'exponential'; meanMs: number };

/** What goes wrong instead of (or with) the normal answer. */
export type Fault =
  | { kind: 'reset' }
  | { kind: 'timeout'; holdMs: number }
  | { kind: 'malformed' }
  | { kind: 'status'; status: number }
  | { kind: 'rate-limit'; limit: number; windowMs: number };

/** One line of the chaos table: which operations, what happens, how often. */
export interface ChaosRule {
  /** An operationId of the document, or `*` for every operation (never the admin API). */
  match: string;
  latency?: Latency;
  fault?: Fault;
  /** Chance that the rule applies to a matching request, from 0 to 1. */
  probability: number;
}

/** The whole chaos configuration: a rules table and the seed of its random draws. */
export interface ChaosSettings {
  /** Seed of the draws (probabilities, distributions); the mock's `--seed` when absent. */
  seed?: number;
  rules: ChaosRule[];
  /** Most requests delayed or held at once (default {@link MAX_HELD}); embedders and tests only. */
  maxHeld?: number;
}

/** Longest injected delay: a delay past a minute tests nothing a client's timeout would not. */
export const MAX_LATENCY_MS = 60_000;
/** Longest a `timeout` fault holds a request before kennel drops the connection itself. */
export const MAX_HOLD_MS = 300_000;
/** How long a `timeout` fault holds a request unless told otherwise. */
export const DEFAULT_HOLD_MS = 60_000;
/** Most requests chaos delays or holds at once, by default (docs/chaos.md). */
export const MAX_HELD = 256;
/** Most rules one table may hold. */
export const MAX_RULES = 100;
