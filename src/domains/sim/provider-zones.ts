import type { DnsZones, NewRecord, ZoneChange, ZoneRecord } from './dns-zones.js';
import { refuse, WORLD_LIMITS, type Outcome, type Platform, type Refusal } from './model.js';
import { apexOf, checkName, checkRecordName, isWithin } from './names.js';
import type { ProviderProfile } from './providers.js';

export interface ProviderZonesDependencies {
  zones: DnsZones;
  providers: readonly ProviderProfile[];
  platform: Platform;
  now(): number;
  log(kind: string, subject: string, summary: string, detail?: Record<string, unknown>): void;
}

/** The platform's own zone as its provider: it answers at once and refuses nothing the platform saves. */
export const PLATFORM_PROVIDER: ProviderProfile = {
  id: 'platform',
  name: 'the platform',
  supportsAlias: true,
  cnameWithOtherData: 'reject',
  publishDelayMs: 0,
  negativeTtl: 60,
  defaultTtl: 300,
  caaQueries: 'answered',
};

/**
 * What users do at their DNS providers and registrars: host a zone, save and remove records, let a
 * registration lapse. Never in the platform's own zone, and within the world's limits.
 */
export class ProviderZones {
  readonly #providers: ReadonlyMap<string, ProviderProfile>;

  constructor(private readonly deps: ProviderZonesDependencies) {
    this.#providers = new Map(deps.providers.map((provider) => [provider.id, provider]));
  }

  providers(): ProviderProfile[] {
    return [...this.#providers.values()];
  }

  addZone(apex: string, providerId: string): Outcome<string> {
    const provider = this.#providers.get(providerId);
    if (!provider)
      return refuse(
        'unknown_provider',
        `no DNS provider ${providerId}; known: ${[...this.#providers.keys()].join(', ')}`,
      );
    const checked = checkName(apex);
    if (!checked.ok) return refuse('invalid_name', checked.reason);
    if (isWithin(checked.name, this.deps.platform.domain))
      return refuse('platform_domain', `${checked.name} is the platform's own zone`);
    const zones = this.deps.zones.list();
    if (!zones.some((zone) => zone.apex === checked.name) && zones.length - 1 >= WORLD_LIMITS.zones)
      return refuse('zone_limit', `the world holds at most ${WORLD_LIMITS.zones} zones; reset it to start again`);
    this.deps.zones.addZone(checked.name, provider);
    this.deps.log('dns.zone', checked.name, `zone hosted at ${provider.name}`);
    return { ok: true, value: checked.name };
  }

  /** The refusal for a user's write at `name` when it lies in the platform's own zone. */
  #platformZone(name: string): Refusal | undefined {
    if (!isWithin(name, this.deps.platform.domain)) return undefined;
    return refuse(
      'platform_zone',
      `${name} is in the platform's own zone (${this.deps.platform.domain}); only the platform edits its records`,
    );
  }

  /** A user saves a record at their DNS provider (never in the platform's own zone). */
  addRecord(input: NewRecord): ZoneChange {
    const checked = checkRecordName(input.name);
    if (!checked.ok) return refuse('invalid_name', checked.reason);
    const platform = this.#platformZone(checked.name);
    if (platform) return platform;
    if (this.deps.zones.recordCount() >= WORLD_LIMITS.records)
      return refuse('record_limit', `the world holds at most ${WORLD_LIMITS.records} DNS records; remove some first`);
    const change = this.deps.zones.addRecord({ ...input, name: checked.name }, this.deps.now());
    if (change.ok)
      this.deps.log(
        'dns.record_added',
        checked.name,
        `${input.type} record saved; answered from ${new Date(change.record.visibleAt).toISOString()}`,
        { id: change.record.id },
      );
    return change;
  }

  /**
   * A user removes matching records at their DNS provider: gone from its dashboard at once,
   * answered by its name servers until the publish delay has passed. Refused in the platform's zone.
   */
  removeRecords(match: { name: string; type?: NewRecord['type']; data?: unknown }): Outcome<ZoneRecord[]> {
    const checked = checkRecordName(match.name);
    if (!checked.ok) return refuse('invalid_name', checked.reason);
    const platform = this.#platformZone(checked.name);
    if (platform) return platform;
    const removed = this.deps.zones.removeRecords({ ...match, name: checked.name }, this.deps.now());
    if (removed.length === 0) return refuse('record_not_found', `no matching record at ${checked.name}`);
    const until = Math.max(...removed.map((record) => record.goneAt!));
    this.deps.log(
      'dns.record_removed',
      checked.name,
      `${removed.length} record(s) removed; answered until ${new Date(until).toISOString()}`,
    );
    return { ok: true, value: removed };
  }

  /** A registered domain's registration lapses or is renewed: only a zone at a registered domain, never the platform's. */
  setLapsed(apex: string, lapsed: boolean): Outcome<null> {
    if (!this.deps.zones.list().some((zone) => zone.apex === apex))
      return refuse('no_such_zone', `no simulated zone has the apex ${apex}`);
    if (apex === this.deps.platform.domain)
      return refuse('platform_zone', `${apex} is the platform's domain, not the user's`);
    if (apexOf(apex) !== apex)
      return refuse('not_registered', `${apex} is not a registered domain (${apexOf(apex)} is)`);
    this.deps.zones.setLapsed(apex, lapsed);
    return { ok: true, value: null };
  }
}
