import type { ActionDefinition } from './action.js';
import { domainAction, type DomainAction } from './domain-action.js';
import { refusalText } from './observe-text.js';

/** `remove-domain: docs.example.com`: detaches a domain. */
export const removeDomain: ActionDefinition<DomainAction<'remove-domain'>> = {
  ...domainAction('remove-domain'),
  doc: 'removes a domain from the project',
  perform({ simulator, project }, action) {
    const outcome = simulator.removeDomain(project, action.domain);
    return { outcome, text: outcome.ok ? 'removed' : refusalText(outcome) };
  },
};
