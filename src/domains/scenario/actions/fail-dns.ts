import type { QueryType } from '../../sim/dns-types.js';
import type { ActionDefinition } from './action.js';

export interface FailDnsAction {
  kind: 'fail-dns';
  zone: string;
  /** Query types answered SERVFAIL; `*` is every type. */
  types: (QueryType | '*')[];
}

/** `fail-dns: {zone, types?}`: a provider outage: the zone's name servers answer SERVFAIL. */
export const failDns: ActionDefinition<FailDnsAction> = {
  key: 'fail-dns',
  doc: "starts a provider outage: the zone's name servers answer SERVFAIL (to every type, or those listed)",
  schema: {
    type: 'object',
    required: ['zone'],
    additionalProperties: false,
    properties: {
      zone: { $ref: '#/$defs/name' },
      types: { type: 'array', items: { anyOf: [{ $ref: '#/$defs/queryType' }, { const: '*' }] } },
    },
  },
  parse(value) {
    const failure = value as { zone: string; types?: (QueryType | '*')[] };
    return { kind: 'fail-dns', zone: failure.zone, types: failure.types ?? ['*'] };
  },
  perform({ simulator }, action) {
    simulator.setZoneFailing(action.zone, action.types);
    return { outcome: { ok: true }, text: `${action.zone} name servers fail ${action.types.join(', ')} queries` };
  },
  describe: (action) => `fail-dns ${action.zone} ${action.types.join(',')}`,
};
