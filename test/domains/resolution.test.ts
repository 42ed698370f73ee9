import { Packet, UDPClient, TCPClient } from 'dns2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataText } from '../../src/domains/sim/record-data.js';
import { startDnsServer, type DnsServerHandle } from '../../src/domains/live/dns-server.js';
import { CachingResolver } from '../../src/domains/sim/caching-resolver.js';
import { RESOLUTION_CASES, resolutionWorld } from './resolution.case.js';

const simulator = resolutionWorld();
const inProcess = new CachingResolver('test', simulator.zones);
let server: DnsServerHandle;

beforeAll(async () => {
  const wire = new CachingResolver('wire', simulator.zones);
  server = await startDnsServer((name, type) => wire.lookup(name, type, simulator.now), { port: 0 });
});
afterAll(() => server.close());

const RCODES: Record<string, number> = {
  NOERROR: Packet.RCODE.NOERROR,
  NXDOMAIN: Packet.RCODE.NXDOMAIN,
  SERVFAIL: Packet.RCODE.SERVFAIL,
};

function wireText(record: Record<string, any>): string {
  const type = Object.entries(Packet.TYPE).find(([, code]) => code === record.type)?.[0] ?? String(record.type);
  switch (type) {
    case 'A':
    case 'AAAA':
      return `${record.name} ${type} ${record.address}`;
    case 'CNAME':
      return `${record.name} CNAME ${record.domain}`;
    case 'TXT':
      return `${record.name} TXT ${JSON.stringify([record.data].flat().join(''))}`;
    case 'MX':
      return `${record.name} MX ${record.priority} ${record.exchange}`;
    case 'CAA':
      return `${record.name} CAA ${record.flags} ${record.tag} ${JSON.stringify(record.value)}`;
    case 'SOA':
      return `${record.name} SOA ${record.primary} ${record.admin} ${record.serial} ${record.refresh} ${record.retry} ${record.expiration} ${record.minimum}`;
    default:
      return `${record.name} ${type}`;
  }
}

describe.each([
  ['the in-process resolver', 'memory'],
  ['the DNS server over UDP', 'udp'],
  ['the DNS server over TCP', 'tcp'],
] as const)('%s', (_label, transport) => {
  it.each(RESOLUTION_CASES)('$label', async ({ name, type, rcode, answers, soa }) => {
    if (transport === 'memory') {
      const answer = inProcess.lookup(name, type, simulator.now);
      expect(answer.rcode).toBe(rcode);
      expect(
        answer.answers.map((record) => `${record.name} ${record.type} ${dataText(record.type, record.data)}`),
      ).toEqual(answers);
      expect(answer.authority.find((record) => record.type === 'SOA')?.name).toBe(soa);
      return;
    }
    const ask =
      transport === 'udp'
        ? UDPClient({ dns: '127.0.0.1', port: server.port })
        : TCPClient({ dns: '127.0.0.1', port: server.port });
    const packet = await ask(name, type);
    expect(packet.header.rcode).toBe(RCODES[rcode]);
    expect(packet.answers.map((record) => wireText(record as Record<string, any>))).toEqual(answers);
    const authority = (packet.authorities as Record<string, any>[]).find((record) => record.type === Packet.TYPE.SOA);
    expect(authority?.name).toBe(soa);
  });
});
