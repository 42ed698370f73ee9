import type { ActionDefinition } from './action.js';
import { domainAction, type DomainAction } from './domain-action.js';
import { refusalText } from './observe-text.js';

/** `add-domain: docs.example.com`: attaches a domain and shows the record to create. */
export const addDomain: ActionDefinition<DomainAction<'add-domain'>> = {
  ...domainAction('add-domain'),
  doc: 'attaches a domain to the project and shows the DNS record to create',
  perform({ simulator, project }, action) {
    const outcome = simulator.addDomain(project, action.domain);
    if (!outcome.ok) return { outcome, text: refusalText(outcome) };
    const [record] = outcome.value.records;
    return {
      outcome,
      records: outcome.value.records,
      domain: outcome.value.domain,
      text: `show ${record!.type} ${record!.name} → ${record!.value} (TTL ${record!.ttl})`,
    };
  },
};
