import type { ActionDefinition } from './action.js';

export interface HealDnsAction {
  kind: 'heal-dns';
  zone: string;
}

/** `heal-dns: example.com`: ends a provider outage. */
export const healDns: ActionDefinition<HealDnsAction> = {
  key: 'heal-dns',
  doc: "ends a provider outage: the zone's name servers answer again",
  schema: { $ref: '#/$defs/name' },
  parse: (value) => ({ kind: 'heal-dns', zone: value as string }),
  perform({ simulator }, action) {
    simulator.setZoneFailing(action.zone, []);
    return { outcome: { ok: true }, text: `${action.zone} name servers answer again` };
  },
  describe: (action) => `heal-dns ${action.zone}`,
};
