import { Resolver } from 'node:dns/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDnsServer, type DnsServerHandle } from '../../src/domains/live/dns-server.js';
import { loadWorld } from '../../src/domains/scenario/scenario-file.js';
import { checkName, checkRecordName } from '../../src/domains/sim/names.js';
import { recordText } from '../../src/domains/sim/record-data.js';
import { buildSimulator } from '../../src/domains/sim/world-config.js';

// The DNS users really have (issue 10, item 2): the platform's zone is not theirs, wildcards,
// underscore labels, IDNA-valid names only, and deletions that take the provider's publish delay.
const world = await loadWorld();
const project = world.project.id;
const host = `${project}.${world.platform.domain}`;

function simulator(provider = 'flexdns') {
  return buildSimulator(world, { zones: [{ apex: 'example.com', provider }] }).simulator;
}

describe('the platform zone refuses user writes (platform_zone)', () => {
  it('adding a CAA or any record at the platform host is refused', () => {
    const sim = simulator();
    for (const record of [
      { name: host, type: 'CAA' as const, data: { flags: 0, tag: 'issue', value: 'nobody.example' } },
      { name: world.platform.domain, type: 'TXT' as const, data: 'x' },
      { name: `other.${world.platform.domain}`, type: 'A' as const, data: '192.0.2.1' },
    ])
      expect(sim.addRecord(record)).toMatchObject({ ok: false, code: 'platform_zone' });
  });

  it('removing the platform addresses is refused and they keep being answered', () => {
    const sim = simulator();
    expect(sim.removeRecords({ name: host, type: 'A' })).toMatchObject({ ok: false, code: 'platform_zone' });
    sim.advance(3_600_000);
    expect(sim.query('public', host, 'A')).toMatchObject({ ok: true, value: { rcode: 'NOERROR' } });
    const answers = sim.query('public', host, 'A');
    expect(answers.ok && answers.value.answers).toHaveLength(world.platform.addresses.length);
  });
});

describe('record names with underscore labels (not domains)', () => {
  it.each([
    ['_acme-challenge.docs.example.com', '_acme-challenge.docs.example.com'],
    ['_dmarc.Example.com', '_dmarc.example.com'],
    ['selector1._domainkey.example.com', 'selector1._domainkey.example.com'],
    ['*.example.com', '*.example.com'],
    ['_dmarc.bücher.example.com', '_dmarc.xn--bcher-kva.example.com'],
  ])('%s is a record name', (input, name) => {
    expect(checkRecordName(input)).toMatchObject({ ok: true, name });
  });

  it.each(['a.*.example.com', '*foo.example.com', '_bad label.example.com', '_dmarc.xn--zz.example.com'])(
    '%s is not',
    (input) => expect(checkRecordName(input).ok).toBe(false),
  );

  it('a TXT record at _acme-challenge and _dmarc can be saved and dug', () => {
    const sim = simulator('laxdns');
    expect(sim.addRecord({ name: '_acme-challenge.docs.example.com', type: 'TXT', data: 'token' }).ok).toBe(true);
    expect(sim.addRecord({ name: '_dmarc.example.com', type: 'TXT', data: 'v=DMARC1; p=none' }).ok).toBe(true);
    const dug = sim.query('public', '_dmarc.example.com', 'TXT');
    expect(dug.ok && dug.value.answers.map(recordText)).toEqual(['_dmarc.example.com TXT "v=DMARC1; p=none"']);
  });

  it('a domain still cannot have an underscore label', () => {
    expect(checkName('_dmarc.example.com').ok).toBe(false);
    expect(simulator().addDomain(project, '_dmarc.example.com')).toMatchObject({ ok: false, code: 'invalid_name' });
  });
});

describe('IDNA (UTS #46 through tr46): invalid punycode is not a domain', () => {
  it.each(['xn--zz.example.com', 'xn--a.example.com', 'docs.xn--ab--c.example'])(
    '%s is refused, naming punycode',
    (input) => {
      const checked = checkName(input);
      expect(checked.ok).toBe(false);
      expect(!checked.ok && checked.reason).toMatch(/punycode|IDNA/);
      expect(simulator().addDomain(project, input)).toMatchObject({ ok: false, code: 'invalid_name' });
    },
  );

  it.each([
    ['xn--bcher-kva.example.com', 'bücher.example.com'],
    ['r3---sn-abc.googlevideo.com', 'r3---sn-abc.googlevideo.com'],
  ])('%s is accepted', (input, unicode) => expect(checkName(input)).toMatchObject({ ok: true, unicode }));
});

describe('deletions wait for the provider publish delay', () => {
  it('a removed record is answered until the publish delay has passed (flexdns 30 s)', () => {
    const sim = simulator();
    sim.addRecord({ name: 'www.example.com', type: 'A', data: '192.0.2.1', published: true });
    expect(sim.removeRecords({ name: 'www.example.com', type: 'A' })).toMatchObject({ ok: true });
    expect(sim.zones.authoritative('www.example.com', 'A', sim.now).answers).toHaveLength(1);
    sim.advance(29_000);
    expect(sim.zones.authoritative('www.example.com', 'A', sim.now).answers).toHaveLength(1);
    sim.advance(1_000);
    expect(sim.zones.authoritative('www.example.com', 'A', sim.now).rcode).toBe('NXDOMAIN');
  });

  it('a removed record no longer shows in the provider dashboard and can be saved again at once', () => {
    const sim = simulator();
    sim.addRecord({ name: 'www.example.com', type: 'A', data: '192.0.2.1', published: true });
    sim.removeRecords({ name: 'www.example.com', type: 'A' });
    const zone = sim.zones.zoneFor('www.example.com')!;
    expect(sim.zones.saved(zone).filter((record) => record.name === 'www.example.com')).toEqual([]);
    expect(sim.addRecord({ name: 'www.example.com', type: 'CNAME', data: host }).ok).toBe(true);
  });
});

describe('wildcard records (RFC 4592)', () => {
  function wildcardWorld() {
    const sim = simulator('laxdns');
    for (const record of [
      { name: '*.example.com', type: 'A' as const, data: '203.0.113.9' },
      { name: 'docs.example.com', type: 'CNAME' as const, data: host },
      { name: 'a.b.example.com', type: 'TXT' as const, data: 'deep' },
      { name: '_dmarc.example.com', type: 'TXT' as const, data: 'v=DMARC1' },
    ])
      expect(sim.addRecord({ ...record, published: true }).ok).toBe(true);
    return sim;
  }
  const ask = (sim: ReturnType<typeof wildcardWorld>, name: string, type: 'A' | 'TXT' = 'A') =>
    sim.zones.authoritative(name, type, sim.now);

  it('synthesises an answer owned by the asked name', () => {
    const answer = ask(wildcardWorld(), 'anything.example.com');
    expect(answer.rcode).toBe('NOERROR');
    expect(answer.answers.map(recordText)).toEqual(['anything.example.com A 203.0.113.9']);
    expect(ask(wildcardWorld(), 'x.y.example.com').answers.map(recordText)).toEqual(['x.y.example.com A 203.0.113.9']);
  });

  it('does not match a name that exists (the CNAME wins)', () => {
    expect(ask(wildcardWorld(), 'docs.example.com').answers.map(recordText)[0]).toBe(`docs.example.com CNAME ${host}`);
  });

  it('does not match an empty non-terminal, nor names below one', () => {
    const ent = ask(wildcardWorld(), 'b.example.com');
    expect(ent).toMatchObject({ rcode: 'NOERROR', answers: [] });
    expect(ask(wildcardWorld(), 'c.b.example.com')).toMatchObject({ rcode: 'NXDOMAIN', answers: [] });
  });

  it('answers NODATA for a type the wildcard lacks, and the apex itself is not matched', () => {
    expect(ask(wildcardWorld(), 'anything.example.com', 'TXT')).toMatchObject({ rcode: 'NOERROR', answers: [] });
    expect(ask(wildcardWorld(), 'example.com')).toMatchObject({ rcode: 'NOERROR', answers: [] });
  });

  describe('over the real DNS server', () => {
    let server: DnsServerHandle;
    let resolver: Resolver;
    beforeAll(async () => {
      const sim = wildcardWorld();
      server = await startDnsServer((name, type) => sim.zones.authoritative(name, type, sim.now));
      resolver = new Resolver({ timeout: 1000, tries: 1 });
      resolver.setServers([`${server.host}:${server.port}`]);
    });
    afterAll(() => server.close());

    it('a leftover wildcard A answers for a name with no records, not for the CNAME', async () => {
      expect(await resolver.resolve4('leftover.example.com')).toEqual(['203.0.113.9']);
      expect(await resolver.resolveCname('docs.example.com')).toEqual([host]);
      await expect(resolver.resolve4('c.b.example.com')).rejects.toMatchObject({ code: 'ENOTFOUND' });
      expect(await resolver.resolveTxt('_dmarc.example.com')).toEqual([['v=DMARC1']]);
    });
  });
});
