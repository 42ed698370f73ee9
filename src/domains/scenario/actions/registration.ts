import type { ActionDefinition } from './action.js';
import type { DomainSimulator } from '../../sim/domain-service.js';
import type { Outcome } from '../../sim/model.js';
import { apexOf } from '../../sim/names.js';
import { refusalText } from './observe-text.js';

export interface RegistrationAction {
  kind: 'lapse-registration' | 'renew-registration';
  zone: string;
}

/** Sets a registered domain's registration state: only a zone at a registered domain, never the platform's. */
function setLapsed(simulator: DomainSimulator, apex: string, lapsed: boolean): Outcome<null> {
  const zone = simulator.world.zones().find((candidate) => candidate.apex === apex);
  if (!zone) return { ok: false, code: 'no_such_zone', message: `no simulated zone has the apex ${apex}` };
  if (apex === simulator.platform.domain)
    return { ok: false, code: 'platform_zone', message: `${apex} is the platform's domain, not the user's` };
  if (apexOf(apex) !== apex)
    return { ok: false, code: 'not_registered', message: `${apex} is not a registered domain (${apexOf(apex)} is)` };
  zone.lapsed = lapsed;
  return { ok: true, value: null };
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
      const outcome = setLapsed(simulator, action.zone, lapsed);
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
