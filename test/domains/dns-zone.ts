// The zone the DNS server tests answer from: example.com with every record type kennel serves,
// TXT sets of every size class, a CNAME, and names that fail (SERVFAIL, a lookup that throws).
import type { DnsLookup, QueryType, ResourceRecord, SoaData } from '../../src/domains/sim/dns-types.js';

export const SOA: SoaData = {
  mname: 'ns1.example.com',
  rname: 'hostmaster.example.com',
  serial: 2025010101,
  refresh: 3600,
  retry: 600,
  expire: 604800,
  minimum: 300,
};
export const LONG_TXT = `kennel-verification=${'x'.repeat(280)}`;
export const BIG_TXT = Array.from({ length: 12 }, (_, i) => `chunk-${i}-${'y'.repeat(180)}`);
/** An answer of about 760 octets: over 512, under 1232. */
export const MID_TXT = 'm'.repeat(700);

export const ZONE: ResourceRecord[] = [
  { name: 'example.com', type: 'SOA', ttl: 3600, data: SOA },
  { name: 'example.com', type: 'NS', ttl: 3600, data: 'ns1.example.com' },
  { name: 'example.com', type: 'MX', ttl: 300, data: { preference: 10, exchange: 'mail.example.com' } },
  { name: 'example.com', type: 'TXT', ttl: 300, data: 'v=spf1 -all' },
  { name: 'example.com', type: 'CAA', ttl: 300, data: { flags: 0, tag: 'issue', value: 'letsencrypt.org' } },
  { name: 'example.com', type: 'CAA', ttl: 300, data: { flags: 0, tag: 'issuewild', value: ';' } },
  {
    name: 'example.com',
    type: 'CAA',
    ttl: 300,
    data: { flags: 0, tag: 'iodef', value: 'mailto:security@example.com' },
  },
  { name: 'critical.example.com', type: 'CAA', ttl: 300, data: { flags: 128, tag: 'tbs', value: 'unknown' } },
  { name: 'docs.example.com', type: 'A', ttl: 60, data: '192.0.2.10' },
  { name: 'docs.example.com', type: 'AAAA', ttl: 60, data: '2001:db8::10' },
  { name: 'www.example.com', type: 'CNAME', ttl: 120, data: 'docs.example.com' },
  { name: '_kennel.docs.example.com', type: 'TXT', ttl: 60, data: LONG_TXT },
  ...BIG_TXT.map((data): ResourceRecord => ({ name: 'big.example.com', type: 'TXT', ttl: 60, data })),
  { name: 'mid.example.com', type: 'TXT', ttl: 60, data: MID_TXT },
  { name: 'bad-address.example.com', type: 'A', ttl: 60, data: 'not-an-address' },
];
export const SOA_RECORD = ZONE[0]!;

/** An in-memory authoritative view of example.com: follows CNAMEs, answers NXDOMAIN/NODATA with the SOA. */
export const fixtureLookup: DnsLookup = (name, type) => {
  if (name === 'broken.example.com') return { rcode: 'SERVFAIL', answers: [], authority: [] };
  if (name === 'throws.example.com') throw new Error('lookup exploded');
  const chain: ResourceRecord[] = [];
  let owner = name;
  for (let cname = find(owner, 'CNAME')[0]; cname && type !== 'CNAME'; cname = find(owner, 'CNAME')[0]) {
    chain.push(cname);
    owner = cname.data as string;
  }
  const records = find(owner, type);
  if (records.length > 0) return { rcode: 'NOERROR', answers: [...chain, ...records], authority: [] };
  const exists = ZONE.some((record) => record.name === owner);
  return { rcode: exists ? 'NOERROR' : 'NXDOMAIN', answers: chain, authority: [SOA_RECORD] };
};

function find(name: string, type: QueryType): ResourceRecord[] {
  return ZONE.filter((record) => record.name === name && record.type === type);
}
