// The shape of a foreign API's fault table: each fault is one clear violation of its document, in
// a family, with the checks that must catch it and, while kennel misses it, the capability it waits for.
import type { Probe } from './probe-client.js';

/** Families of faults, as the product team's measurement groups them. */
export const FAMILIES = [
  'state',
  'references',
  'envelopes',
  'pagination',
  'negative',
  'auth',
  'errors',
  'headers',
  'status',
  'content',
] as const;
export type Family = (typeof FAMILIES)[number];

/** The capabilities of `kennel check` being built; a fault missed today waits for one of them. */
export type Capability =
  | 'exploration' // value pool, producer -> consumer references, dependency order, sub-actions
  | 'envelopes' // lists inside {"data": [...]} wrappers
  | 'pagination' // page and next/prev links followed and judged
  | 'verdicts' // honest verdicts: must-accept, not exercised, composition
  | 'negative-inputs'; // invalid and boundary query, path and body values

export interface FaultSpec<Name extends string = string> {
  name: Name;
  family: Family;
  /** The violation, in the document's words. */
  description: string;
  /** The checks that must catch it once the capability exists (existing names, or the natural home). */
  checks: readonly string[];
  /** True when kennel catches it today, by one of `checks`; the test pins exactly these. */
  caughtToday: boolean;
  /**
   * Where the checks that report it today (an error finding the reference run has not, in a run of
   * `checks` and the producers) are not exactly `checks`: those checks. foreign-apis.test.ts
   * asserts this set, or `checks`, exactly.
   */
  caughtBy?: readonly string[];
  /** For a fault missed today: what kennel lacks to catch it. */
  waitsFor?: Capability;
}

/** A deployment of a foreign API: the reference (correct), a correct variant, or one fault. */
export interface ForeignApi<Fault extends string = string> {
  /** Short name, as the score prints it. */
  name: string;
  /** The OpenAPI document, a path. */
  document: string;
  faults: readonly FaultSpec<Fault>[];
  /** The correct deployments by name (the first is the reference the faults are scored against). */
  correct: readonly string[];
  /** The key kennel check sends (`--api-key`). */
  apiKey: string;
  /** The credential header a client holding the key sends (for the probes): its value... */
  authorization: string;
  /** ...and its name, when not `Authorization` (an API key in a header such as `X-Api-Key`). */
  authHeader?: string;
  /** The careful hand-written probe of each fault. */
  probes: Readonly<Record<Fault, Probe>>;
  start(options: { fault?: Fault; variant?: string }): Promise<{ url: string; close(): Promise<void> }>;
}
