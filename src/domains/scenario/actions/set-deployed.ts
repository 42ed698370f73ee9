import type { ActionDefinition } from './action.js';
import { refusalText } from './observe-text.js';

export interface SetDeployedAction {
  kind: 'set-deployed';
  deployed: boolean;
}

/** `set-deployed: false`: whether the project has a successful deploy (rule 1's second gate). */
export const setDeployed: ActionDefinition<SetDeployedAction> = {
  key: 'set-deployed',
  doc: 'says whether the project has a successful deploy (rule 1)',
  schema: { type: 'boolean' },
  parse: (value) => ({ kind: 'set-deployed', deployed: value as boolean }),
  perform({ simulator, project }, action) {
    const outcome = simulator.setDeployed(project, action.deployed);
    return {
      outcome,
      text: outcome.ok ? (action.deployed ? 'deployed' : 'no successful deploy') : refusalText(outcome),
    };
  },
  describe: (action) => `set-deployed ${action.deployed}`,
};
