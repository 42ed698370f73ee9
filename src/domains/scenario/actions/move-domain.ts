import type { ActionDefinition } from './action.js';
import { refusalText } from './observe-text.js';

export interface MoveDomainAction {
  kind: 'move-domain';
  domain: string;
  /** The project it moves to (an `otherProjects` id, or the scenario's own to move one back). */
  to: string;
  /** The project it leaves; default the scenario's own. */
  from?: string;
}

/** `move-domain: {domain, to, from?}`: moves an attached domain to another project. */
export const moveDomain: ActionDefinition<MoveDomainAction> = {
  key: 'move-domain',
  doc: 'moves an attached domain to another project, with its DNS state and certificate',
  schema: {
    type: 'object',
    required: ['domain', 'to'],
    additionalProperties: false,
    properties: { domain: { $ref: '#/$defs/name' }, to: { type: 'string' }, from: { type: 'string' } },
  },
  parse(value) {
    const move = value as { domain: string; to: string; from?: string };
    return { kind: 'move-domain', domain: move.domain, to: move.to, ...(move.from ? { from: move.from } : {}) };
  },
  perform({ simulator, project }, action) {
    const outcome = simulator.moveDomain(action.from ?? project, action.domain, action.to);
    return { outcome, text: outcome.ok ? `moved to ${action.to}` : refusalText(outcome) };
  },
  describe: (action) => `move-domain ${action.domain} → ${action.to}`,
};
