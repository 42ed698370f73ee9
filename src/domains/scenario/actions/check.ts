import type { ActionDefinition } from './action.js';
import { domainAction, type DomainAction } from './domain-action.js';
import { domainText } from './observe-text.js';

/** `check: docs.example.com`: changes nothing; its expectations read the domain's current state. */
export const check: ActionDefinition<DomainAction<'check'>> = {
  ...domainAction('check'),
  doc: "changes nothing: the step's expectations read the domain's current state",
  perform({ simulator, project }, action) {
    const domain = simulator.domain(project, action.domain);
    return { outcome: { ok: true }, domain, text: domain ? domainText(domain, simulator.now) : 'not attached' };
  },
};
