import type { ActionContext, ActionDefinition, Observation } from './action.js';
import { addDomain } from './add-domain.js';
import { addRecord } from './add-record.js';
import { addRedirect } from './add-redirect.js';
import { advance } from './advance.js';
import { check } from './check.js';
import { dig } from './dig.js';
import { failDns } from './fail-dns.js';
import { healDns } from './heal-dns.js';
import { lapseRegistration, renewRegistration } from './registration.js';
import { moveDomain } from './move-domain.js';
import { deploy } from './deploy.js';
import { removeDomain } from './remove-domain.js';
import { removeRecord } from './remove-record.js';
import { removeRedirect } from './remove-redirect.js';
import { reverify } from './reverify.js';
import { serve } from './serve.js';
import { setDeployed } from './set-deployed.js';
import { setPlan } from './set-plan.js';
import { setPrimary } from './set-primary.js';
import { setDnssec } from './set-dnssec.js';
import { verify } from './verify.js';

/** Every scenario action, in the order error messages and docs list them. Adding one: a file and a line here. */
export const ACTION_TABLE = [
  addDomain,
  verify,
  reverify,
  removeDomain,
  setPrimary,
  check,
  addRecord,
  removeRecord,
  advance,
  dig,
  serve,
  setPlan,
  setDeployed,
  addRedirect,
  removeRedirect,
  failDns,
  healDns,
  lapseRegistration,
  renewRegistration,
  moveDomain,
  deploy,
  setDnssec,
] as const;

type ActionOf<D> = D extends ActionDefinition<infer A> ? A : never;

/** One user, DNS or clock action of a scenario, as parsed from its step. */
export type Action = ActionOf<(typeof ACTION_TABLE)[number]>;

/** Step keys that are actions (every other key of a step is `name` or `expect`). */
export const ACTIONS: readonly Action['kind'][] = ACTION_TABLE.map((definition) => definition.key);

const BY_KEY = new Map<string, ActionDefinition<Action>>(
  ACTION_TABLE.map((definition) => [definition.key, definition]),
);

/** The definition registered for a step key, or undefined for a key that is no action. */
export function actionDefinition(key: string): ActionDefinition<Action> | undefined {
  return BY_KEY.get(key);
}

/** Plays an action through its registered definition. */
export function performAction(context: ActionContext, action: Action): Observation {
  return BY_KEY.get(action.kind)!.perform(context, action);
}

/** The line a timeline prints for an action. */
export function describeAction(action: Action): string {
  return BY_KEY.get(action.kind)!.describe(action);
}
