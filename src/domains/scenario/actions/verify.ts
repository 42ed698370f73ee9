import type { ActionDefinition, ActionContext, Observation } from './action.js';
import { domainAction, type DomainAction } from './domain-action.js';
import { domainText, refusalText } from './observe-text.js';

/** Presses Verify (or Re-verify) and reports the domain's state. */
export function performVerify({ simulator, project }: ActionContext, domain: string, reverify: boolean): Observation {
  const outcome = simulator.verify(project, domain, { reverify });
  return outcome.ok
    ? { outcome, domain: outcome.value, text: domainText(outcome.value, simulator.now) }
    : { outcome, text: refusalText(outcome) };
}

/** `verify: docs.example.com`: the Verify button. */
export const verify: ActionDefinition<DomainAction<'verify'>> = {
  ...domainAction('verify'),
  doc: 'presses Verify: checks the DNS now and starts the certificate when it holds',
  perform: (context, action) => performVerify(context, action.domain, false),
};
