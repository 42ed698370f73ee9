/** Defaults of `kennel check` (a module of its own, so the CLI can show them without loading the runner). */
export const CONTRACT_DEFAULTS = {
  maxExamples: 30,
  timeoutMs: 10_000,
  concurrency: 8,
  rateLimit: 0,
  /** Largest response body read, decompressed (10 MB); a larger one is cut off and reported. */
  maxResponseBytes: 10 * 1024 * 1024,
} as const;
