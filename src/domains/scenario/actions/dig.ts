import type { QueryType } from '../../sim/dns-types.js';
import { recordText } from '../../sim/record-data.js';
import type { ActionDefinition } from './action.js';
import { refusalText } from './observe-text.js';

export interface DigAction {
  kind: 'dig';
  name: string;
  type: QueryType;
  resolver: string;
}

/** `dig: {name, type, resolver?}`: asks a resolver, as `dig` would. */
export const dig: ActionDefinition<DigAction> = {
  key: 'dig',
  doc: "asks a resolver (public, the default, or platform: the verifier's and CA's)",
  schema: {
    type: 'object',
    required: ['name', 'type'],
    additionalProperties: false,
    properties: {
      name: { $ref: '#/$defs/name' },
      type: { $ref: '#/$defs/queryType' },
      resolver: { enum: ['public', 'platform'] },
    },
  },
  parse(value) {
    const question = value as { name: string; type: QueryType; resolver?: string };
    return { kind: 'dig', name: question.name, type: question.type, resolver: question.resolver ?? 'public' };
  },
  perform({ simulator }, action) {
    const outcome = simulator.query(action.resolver, action.name, action.type);
    if (!outcome.ok) return { outcome, text: refusalText(outcome) };
    const { rcode, answers, fromCache } = outcome.value;
    return {
      outcome,
      dns: { rcode, answers, fromCache },
      text: `${rcode}${fromCache ? ' (cached)' : ''}${answers.length > 0 ? `: ${answers.map(recordText).join(', ')}` : ''}`,
    };
  },
  describe: (action) => `dig @${action.resolver} ${action.name} ${action.type}`,
};
