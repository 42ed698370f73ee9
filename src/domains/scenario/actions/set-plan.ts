import type { Plan } from '../../sim/model.js';
import type { ActionDefinition } from './action.js';
import { refusalText } from './observe-text.js';

export interface SetPlanAction {
  kind: 'set-plan';
  plan: Plan;
}

/** `set-plan: free`: changes the project's plan (rule 1's first gate). */
export const setPlan: ActionDefinition<SetPlanAction> = {
  key: 'set-plan',
  doc: "changes the project's plan (custom domains need a paid plan: rule 1)",
  schema: { enum: ['free', 'pro', 'enterprise'] },
  parse: (value) => ({ kind: 'set-plan', plan: value as Plan }),
  perform({ simulator, project }, action) {
    const outcome = simulator.setPlan(project, action.plan);
    return { outcome, text: outcome.ok ? `plan ${action.plan}` : refusalText(outcome) };
  },
  describe: (action) => `set-plan ${action.plan}`,
};
