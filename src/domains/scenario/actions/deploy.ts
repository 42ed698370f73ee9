import type { ActionDefinition } from './action.js';
import { refusalText } from './observe-text.js';

export interface DeployAction {
  kind: 'deploy';
  result: 'succeeded' | 'failed';
}

/** `deploy: failed`: a deploy finishes; a failed one leaves the last good deploy serving. */
export const deploy: ActionDefinition<DeployAction> = {
  key: 'deploy',
  doc: 'a deploy finishes: succeeded (rule 1 holds) or failed (the last good deploy keeps serving)',
  schema: { enum: ['succeeded', 'failed'] },
  parse: (value) => ({ kind: 'deploy', result: value as DeployAction['result'] }),
  perform({ simulator, project }, action) {
    const outcome = simulator.deploy(project, action.result);
    if (!outcome.ok) return { outcome, text: refusalText(outcome) };
    const text =
      action.result === 'succeeded'
        ? 'deploy succeeded'
        : outcome.value.deployed
          ? 'deploy failed; the last good deploy keeps serving'
          : 'deploy failed; still no successful deploy';
    return { outcome, text };
  },
  describe: (action) => `deploy ${action.result}`,
};
