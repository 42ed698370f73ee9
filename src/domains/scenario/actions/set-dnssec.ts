import { DNSSEC_STATES, type DnssecState } from '../../sim/dnssec.js';
import { refuse } from '../../sim/model.js';
import type { ActionDefinition } from './action.js';
import { refusalText } from './observe-text.js';

export interface SetDnssecAction {
  kind: 'set-dnssec';
  zone: string;
  state: DnssecState;
}

/** `set-dnssec: {zone, state}`: the provider starts or stops signing, the registrar adds or removes the DS. */
export const setDnssec: ActionDefinition<SetDnssecAction> = {
  key: 'set-dnssec',
  doc: "sets a zone's DNSSEC state (unsigned, signed, signed-without-ds, stale-ds)",
  schema: {
    type: 'object',
    required: ['zone', 'state'],
    additionalProperties: false,
    properties: { zone: { $ref: '#/$defs/name' }, state: { enum: [...DNSSEC_STATES] } },
  },
  parse(value) {
    const change = value as { zone: string; state: DnssecState };
    return { kind: 'set-dnssec', zone: change.zone.toLowerCase(), state: change.state };
  },
  perform({ simulator }, action) {
    if (!simulator.zones.list().some((zone) => zone.apex === action.zone)) {
      const outcome = refuse('no_such_zone', `no simulated zone has the apex ${action.zone}`);
      return { outcome, text: refusalText(outcome) };
    }
    simulator.setZoneDnssec(action.zone, action.state);
    return { outcome: { ok: true }, text: `${action.zone} is now ${action.state}` };
  },
  describe: (action) => `set-dnssec ${action.zone} ${action.state}`,
};
