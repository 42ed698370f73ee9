// The DNS server answers every packet through a resolver: those questions go to a bounded query
// log of their own, so a busy client cannot push the world's events out of the history.
import { UDPClient } from 'dns2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDnsServer, type DnsServerHandle } from '../../src/domains/live/dns-server.js';
import { PLATFORM_RESOLVER, PUBLIC_RESOLVER } from '../../src/domains/sim/resolvers.js';
import { QueryLog, History } from '../../src/domains/sim/history.js';
import { resolutionWorld } from './resolution.case.js';

describe('the query log', () => {
  it('keeps the newest entries up to its capacity, oldest first', () => {
    const log = new QueryLog(3);
    for (let i = 0; i < 5; i++)
      log.add({
        at: i,
        resolver: 'public',
        name: `n${i}.example.com`,
        type: 'A',
        rcode: 'NXDOMAIN',
        fromCache: false,
        answers: 0,
      });
    expect(log.size).toBe(3);
    expect(log.list().map((entry) => entry.name)).toEqual(['n2.example.com', 'n3.example.com', 'n4.example.com']);
    expect(log.list({ name: 'n3.example.com' })).toHaveLength(1);
    expect(log.list({ since: 4 }).map((entry) => entry.at)).toEqual([4]);
    expect(log.list({ resolver: 'platform' })).toEqual([]);
  });

  it('the history stays bounded too, oldest events going first', () => {
    const history = new History(2);
    for (let i = 0; i < 4; i++) history.add({ at: i, kind: 'x', summary: String(i) });
    expect(history.list().map((event) => event.summary)).toEqual(['2', '3']);
  });
});

describe('questions asked of a resolver', () => {
  it('go to the query log, not the history; the verifier and CA queries stay in the history', () => {
    const simulator = resolutionWorld();
    const before = simulator.history.list().length;
    for (let i = 0; i < 500; i++) simulator.query(PUBLIC_RESOLVER, `n${i}.example.com`, 'A');
    expect(simulator.history.list().length).toBe(before);
    expect(simulator.queryLog.list().at(-1)).toMatchObject({
      resolver: PUBLIC_RESOLVER,
      name: 'n499.example.com',
      type: 'A',
      rcode: 'NXDOMAIN',
      fromCache: false,
    });
    expect(simulator.addDomain('docs', 'www.example.com').ok).toBe(true);
    simulator.verify('docs', 'www.example.com');
    const verifierQueries = simulator.history.list({ kind: 'dns.query' });
    expect(verifierQueries.length).toBeGreaterThan(0);
    expect(verifierQueries.every((event) => event.detail?.resolver === PLATFORM_RESOLVER)).toBe(true);
  });
});

describe('over the real DNS server', () => {
  const simulator = resolutionWorld();
  let server: DnsServerHandle;
  beforeAll(async () => {
    server = await startDnsServer((name, type) => {
      const answer = simulator.query(PUBLIC_RESOLVER, name, type);
      if (!answer.ok) throw new Error(answer.message);
      return answer.value;
    });
  });
  afterAll(() => server.close());

  it('a stream of queries leaves the history as it was and the query log bounded', async () => {
    const before = simulator.history.list();
    const ask = UDPClient({ dns: '127.0.0.1', port: server.port });
    for (let i = 0; i < 50; i++) await ask(`flood-${i}.example.com`, 'A');
    expect(simulator.history.list()).toEqual(before);
    expect(
      simulator.queryLog
        .list()
        .slice(-50)
        .map((entry) => entry.name),
    ).toEqual(Array.from({ length: 50 }, (_, i) => `flood-${i}.example.com`));
    expect(simulator.queryLog.size).toBeLessThanOrEqual(simulator.queryLog.capacity);
  });
});
