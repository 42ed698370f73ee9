import type { QueryType } from '../../sim/dns-types.js';
import { RESOLVERS } from '../../sim/resolvers.js';
import { recordText } from '../../sim/record-data.js';
import type { ActionDefinition } from './action.js';
import { refusalText } from './observe-text.js';

export interface DigAction {
  kind: 'dig';
  name: string;
  type: QueryType;
  resolver: string;
  /** CD: ask a validating resolver not to check DNSSEC (`dig +cd`, RFC 4035 §3.2.2). */
  checkingDisabled: boolean;
}

/** `dig: {name, type, resolver?}`: asks a resolver, as `dig` would. */
export const dig: ActionDefinition<DigAction> = {
  key: 'dig',
  doc: "asks a resolver (public, the default; platform: the verifier's; ca: the CA's; non-validating), with cd: true as dig +cd",
  schema: {
    type: 'object',
    required: ['name', 'type'],
    additionalProperties: false,
    properties: {
      name: { $ref: '#/$defs/name' },
      type: { $ref: '#/$defs/queryType' },
      resolver: { enum: RESOLVERS.map((resolver) => resolver.id) },
      cd: { type: 'boolean' },
    },
  },
  parse(value) {
    const question = value as { name: string; type: QueryType; resolver?: string; cd?: boolean };
    return {
      kind: 'dig',
      name: question.name,
      type: question.type,
      resolver: question.resolver ?? 'public',
      checkingDisabled: question.cd ?? false,
    };
  },
  perform({ simulator }, action) {
    const outcome = simulator.query(action.resolver, action.name, action.type, {
      checkingDisabled: action.checkingDisabled,
    });
    if (!outcome.ok) return { outcome, text: refusalText(outcome) };
    const { rcode, answers, fromCache, security, bogus } = outcome.value;
    const authenticated = security === 'secure';
    const flags = `${fromCache ? ' (cached)' : ''}${authenticated ? ' (ad)' : ''}${bogus ? ` (bogus: ${bogus})` : ''}`;
    return {
      outcome,
      dns: { rcode, answers, fromCache, authenticated },
      text: `${rcode}${flags}${answers.length > 0 ? `: ${answers.map(recordText).join(', ')}` : ''}`,
    };
  },
  describe: (action) => `dig @${action.resolver}${action.checkingDisabled ? ' +cd' : ''} ${action.name} ${action.type}`,
};
