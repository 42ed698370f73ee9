import type { ActionDefinition } from './action.js';
import { domainAction, type DomainAction } from './domain-action.js';
import { refusalText } from './observe-text.js';

/** `set-primary: docs.example.com`: makes a domain the primary one. */
export const setPrimary: ActionDefinition<DomainAction<'set-primary'>> = {
  ...domainAction('set-primary'),
  doc: 'makes a verified domain the primary one (the others redirect to it)',
  perform({ simulator, project }, action) {
    const outcome = simulator.setPrimary(project, action.domain);
    return { outcome, text: outcome.ok ? `primary is ${action.domain}` : refusalText(outcome) };
  },
};
