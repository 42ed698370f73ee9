import type { ActionDefinition } from './action.js';
import { refusalText } from './observe-text.js';

export interface AddRedirectAction {
  kind: 'add-redirect';
  from: string;
  to: string;
  status: number;
}

/** `add-redirect: {from, to, status?}`: a domain redirect (rule 10). */
export const addRedirect: ActionDefinition<AddRedirectAction> = {
  key: 'add-redirect',
  doc: 'saves a redirect from one domain to another (rule 10; status defaults to 301, the only one documented)',
  schema: {
    type: 'object',
    required: ['from', 'to'],
    additionalProperties: false,
    properties: {
      from: { $ref: '#/$defs/name' },
      to: { $ref: '#/$defs/name' },
      status: { type: 'integer', description: 'Defaults to 301, the documented status.' },
    },
  },
  parse(value) {
    const redirect = value as { from: string; to: string; status?: number };
    return { kind: 'add-redirect', from: redirect.from, to: redirect.to, status: redirect.status ?? 301 };
  },
  perform({ simulator, project }, action) {
    const outcome = simulator.addRedirect(project, { from: action.from, to: action.to, status: action.status });
    return { outcome, text: outcome.ok ? 'redirect saved' : refusalText(outcome) };
  },
  describe: (action) => `add-redirect ${action.from} → ${action.to} (${action.status})`,
};
