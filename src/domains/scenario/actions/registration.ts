import type { ActionDefinition } from './action.js';
import { refusalText } from './observe-text.js';

export interface RegistrationAction {
  kind: 'lapse-registration' | 'renew-registration';
  zone: string;
}

function registration(
  kind: RegistrationAction['kind'],
  doc: string,
  lapsed: boolean,
): ActionDefinition<RegistrationAction> {
  return {
    key: kind,
    doc,
    schema: { $ref: '#/$defs/name' },
    parse: (value) => ({ kind, zone: (value as string).toLowerCase().replace(/\.$/, '') }),
    perform({ simulator }, action) {
      const outcome = simulator.setRegistrationLapsed(action.zone, lapsed);
      if (!outcome.ok) return { outcome, text: refusalText(outcome) };
      const text = lapsed
        ? `the registry no longer delegates ${action.zone}: its names are NXDOMAIN`
        : `${action.zone} is delegated again`;
      return { outcome, text };
    },
    describe: (action) => `${kind} ${action.zone}`,
  };
}

/** `lapse-registration: example.com`: the domain's registration expires; the registry withdraws its delegation. */
export const lapseRegistration = registration(
  'lapse-registration',
  "the registered domain's registration lapses: the registry withdraws the delegation, every name under it is NXDOMAIN",
  true,
);

/** `renew-registration: example.com`: the registration is renewed and the delegation restored. */
export const renewRegistration = registration(
  'renew-registration',
  'the registration is renewed: the registry delegates the zone again (cached NXDOMAIN answers last their TTL)',
  false,
);
