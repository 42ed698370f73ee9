import type { ActionDefinition } from './action.js';
import { refusalText } from './observe-text.js';

export interface RemoveRedirectAction {
  kind: 'remove-redirect';
  from: string;
}

/** `remove-redirect: old.example.com`: deletes the redirect from that domain. */
export const removeRedirect: ActionDefinition<RemoveRedirectAction> = {
  key: 'remove-redirect',
  doc: 'deletes the redirect from a domain',
  schema: { $ref: '#/$defs/name' },
  parse: (value) => ({ kind: 'remove-redirect', from: value as string }),
  perform({ simulator, project }, action) {
    const outcome = simulator.removeRedirect(project, action.from);
    return { outcome, text: outcome.ok ? 'redirect removed' : refusalText(outcome) };
  },
  describe: (action) => `remove-redirect ${action.from}`,
};
