import type { ResourceRecord, SoaData } from './dns-types.js';
import type { ProviderProfile } from './providers.js';

/** The SOA record at a zone's apex: its MINIMUM is the provider's negative-caching TTL. */
export type ZoneSoa = ResourceRecord & { data: SoaData };

/** The SOA a provider publishes at the apex of a zone it hosts. */
export function soaFor(apex: string, provider: ProviderProfile): ZoneSoa {
  return {
    name: apex,
    type: 'SOA',
    ttl: 3600,
    data: {
      mname: `ns1.${provider.id}.dns`,
      rname: `hostmaster.${apex}`,
      serial: 1,
      refresh: 7200,
      retry: 3600,
      expire: 1_209_600,
      minimum: provider.negativeTtl,
    },
  };
}

/** A synthetic SOA for top-level and public-suffix names outside every simulated zone. */
export function registrySoa(suffix: string): ZoneSoa {
  return {
    name: suffix,
    type: 'SOA',
    ttl: 900,
    data: {
      mname: `a.nic.${suffix}`,
      rname: `hostmaster.nic.${suffix}`,
      serial: 1,
      refresh: 1800,
      retry: 900,
      expire: 604_800,
      minimum: 86_400,
    },
  };
}

/** The SOA as a negative answer carries it: TTL = min(SOA TTL, SOA MINIMUM) (RFC 2308 §3). */
export function negativeSoa(soa: ZoneSoa): ResourceRecord {
  return { name: soa.name, type: 'SOA', ttl: Math.min(soa.ttl, soa.data.minimum), data: soa.data };
}
