import type { DnsAnswer, QueryType } from '../../src/domains/sim/dns-types.js';
import { DomainSimulator } from '../../src/domains/sim/domain-service.js';
import type { ProviderProfile } from '../../src/domains/sim/providers.js';
import type { Platform } from '../../src/domains/sim/model.js';

// One table of DNS questions, asked of every view of the simulated DNS (the in-process resolver,
// the UDP and TCP server), so they cannot drift apart (Hono's shared router suite, for DNS).

export const PLATFORM: Platform = {
  domain: 'kennel-pages.dev',
  addresses: ['198.51.100.10'],
  addressesV6: ['2001:db8:100::10'],
  recordTtl: 3600,
  caIdentity: 'letsencrypt.org',
  caAccountUri: 'https://acme.example/acct/1',
  validationMethod: 'http-01',
  issuanceDelayMs: [60_000, 60_000],
  certificateTimeoutMs: 1_800_000,
  retryIntervalMs: 600_000,
  retryWindowMs: 86_400_000,
  certificateLifetimeMs: 7_776_000_000,
  renewBeforeMs: 2_592_000_000,
  renewalRetryIntervalMs: 43_200_000,
};

/** A provider that publishes at once, with a 5-minute negative TTL. */
export const FLEX_PROVIDER: ProviderProfile = {
  id: 'flex',
  name: 'Flex',
  supportsAlias: true,
  cnameWithOtherData: 'reject',
  publishDelayMs: 0,
  negativeTtl: 300,
  defaultTtl: 3600,
  caaQueries: 'answered',
};

const PROVIDERS: ProviderProfile[] = [
  FLEX_PROVIDER,
  {
    id: 'lax',
    name: 'Lax',
    supportsAlias: false,
    cnameWithOtherData: 'tolerate',
    publishDelayMs: 0,
    negativeTtl: 900,
    defaultTtl: 3600,
    caaQueries: 'servfail',
  },
];

/** A world with one of every interesting shape. */
export function resolutionWorld(): DomainSimulator {
  const simulator = new DomainSimulator({
    platform: PLATFORM,
    providers: PROVIDERS,
    start: Date.parse('2026-01-01T00:00:00Z'),
    seed: 1,
  });
  simulator.addProject({ id: 'docs', plan: 'pro', deployed: true });
  simulator.addZone('example.com', 'flex');
  simulator.addZone('example.net', 'lax');
  const records: { name: string; type: 'A' | 'AAAA' | 'CNAME' | 'ALIAS' | 'CAA' | 'TXT' | 'MX'; data: unknown }[] = [
    { name: 'example.com', type: 'ALIAS', data: 'docs.kennel-pages.dev' },
    { name: 'example.com', type: 'CAA', data: { flags: 0, tag: 'issue', value: 'letsencrypt.org' } },
    { name: 'example.com', type: 'TXT', data: 'hello' },
    { name: 'example.com', type: 'MX', data: { preference: 10, exchange: 'mail.example.com' } },
    { name: 'www.example.com', type: 'CNAME', data: 'docs.kennel-pages.dev' },
    { name: 'a.example.com', type: 'CNAME', data: 'b.example.com' },
    { name: 'b.example.com', type: 'CNAME', data: 'a.example.com' },
    { name: 'dangling.example.com', type: 'CNAME', data: 'gone.example.com' },
    { name: 'deep.sub.example.com', type: 'A', data: '203.0.113.5' },
    { name: 'both.example.net', type: 'A', data: '203.0.113.9' },
    { name: 'both.example.net', type: 'CNAME', data: 'docs.kennel-pages.dev' },
  ];
  for (const record of records) {
    const change = simulator.addRecord({ ...record, ttl: 3600 });
    if (!change.ok) throw new Error(`fixture ${record.type} ${record.name}: ${change.message}`);
  }
  return simulator;
}

export interface ResolutionCase {
  label: string;
  name: string;
  type: QueryType;
  rcode: DnsAnswer['rcode'];
  /** `name TYPE data` of the answer section, in order. */
  answers: string[];
  /** Owner of the SOA in the authority section, for negative answers. */
  soa?: string;
}

export const RESOLUTION_CASES: ResolutionCase[] = [
  {
    label: 'ALIAS at the apex is flattened to the target addresses',
    name: 'example.com',
    type: 'A',
    rcode: 'NOERROR',
    answers: ['example.com A 198.51.100.10'],
  },
  {
    label: 'ALIAS flattening for AAAA too',
    name: 'example.com',
    type: 'AAAA',
    rcode: 'NOERROR',
    answers: ['example.com AAAA 2001:db8:100::10'],
  },
  {
    label: 'CAA',
    name: 'example.com',
    type: 'CAA',
    rcode: 'NOERROR',
    answers: ['example.com CAA 0 issue "letsencrypt.org"'],
  },
  { label: 'TXT', name: 'example.com', type: 'TXT', rcode: 'NOERROR', answers: ['example.com TXT "hello"'] },
  { label: 'MX', name: 'example.com', type: 'MX', rcode: 'NOERROR', answers: ['example.com MX 10 mail.example.com'] },
  {
    label: 'SOA at the apex',
    name: 'example.com',
    type: 'SOA',
    rcode: 'NOERROR',
    answers: ['example.com SOA ns1.flex.dns hostmaster.example.com 1 7200 3600 1209600 300'],
  },
  {
    label: 'a CNAME chain to the platform',
    name: 'www.example.com',
    type: 'A',
    rcode: 'NOERROR',
    answers: ['www.example.com CNAME docs.kennel-pages.dev', 'docs.kennel-pages.dev A 198.51.100.10'],
  },
  {
    label: 'the CNAME itself',
    name: 'www.example.com',
    type: 'CNAME',
    rcode: 'NOERROR',
    answers: ['www.example.com CNAME docs.kennel-pages.dev'],
  },
  { label: 'a CNAME loop fails', name: 'a.example.com', type: 'A', rcode: 'SERVFAIL', answers: [] },
  {
    label: 'a dangling CNAME is NXDOMAIN with the chain',
    name: 'dangling.example.com',
    type: 'A',
    rcode: 'NXDOMAIN',
    answers: ['dangling.example.com CNAME gone.example.com'],
    soa: 'example.com',
  },
  {
    label: 'an unknown name is NXDOMAIN with the SOA',
    name: 'nope.example.com',
    type: 'A',
    rcode: 'NXDOMAIN',
    answers: [],
    soa: 'example.com',
  },
  {
    label: 'an empty non-terminal is NODATA',
    name: 'sub.example.com',
    type: 'A',
    rcode: 'NOERROR',
    answers: [],
    soa: 'example.com',
  },
  {
    label: 'a name without that type is NODATA',
    name: 'deep.sub.example.com',
    type: 'TXT',
    rcode: 'NOERROR',
    answers: [],
    soa: 'example.com',
  },
  {
    label: 'a tolerated A record next to a CNAME wins A queries',
    name: 'both.example.net',
    type: 'A',
    rcode: 'NOERROR',
    answers: ['both.example.net A 203.0.113.9'],
  },
  { label: 'a provider that fails CAA queries', name: 'example.net', type: 'CAA', rcode: 'SERVFAIL', answers: [] },
  { label: 'a public suffix exists without data', name: 'com', type: 'CAA', rcode: 'NOERROR', answers: [], soa: 'com' },
  { label: 'a name outside every zone', name: 'unknown.test', type: 'A', rcode: 'NXDOMAIN', answers: [], soa: 'test' },
];
