import type { Rcode, ResourceRecord } from '../../sim/dns-types.js';
import type { DomainSimulator } from '../../sim/domain-service.js';
import type { DomainState, Outcome, RequiredRecord } from '../../sim/model.js';
import type { ServeResult } from '../../sim/site.js';

/** What an action produced, for expectations and the timeline. */
export interface Observation {
  outcome: Outcome<unknown> | { ok: true; value?: unknown };
  records?: RequiredRecord[];
  domain?: DomainState;
  /** `authenticated`: AD, a validating resolver found the whole answer secure (RFC 4035 §3.2.3). */
  dns?: { rcode: Rcode; answers: ResourceRecord[]; fromCache: boolean; authenticated: boolean };
  served?: ServeResult;
  text: string;
}

/** What an action acts on: the simulator and the project the scenario plays as. */
export interface ActionContext {
  simulator: DomainSimulator;
  project: string;
}

/** Why a step's value is not a usable action; the parser locates it at the step's action key. */
export interface ActionProblem {
  problem: string;
}

/** A JSON-schema fragment, as written under `$defs.step.properties` of spec/scenario.schema.json. */
export type SchemaFragment = Readonly<Record<string, unknown>>;

/**
 * One scenario action: the step key, its value's schema, how a schema-valid value becomes the typed
 * action, what playing it does, and the line timelines print. Register it in actions/index.ts.
 */
export interface ActionDefinition<A extends { kind: string }> {
  key: A['kind'];
  /** One line for docs and error messages: what the action does. */
  doc: string;
  schema: SchemaFragment;
  /** Runs after schema validation: checks what the schema cannot say (durations, URLs). */
  parse(value: unknown): A | ActionProblem;
  perform(context: ActionContext, action: A): Observation;
  describe(action: A): string;
}
