import { readFile } from 'node:fs/promises';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { MAX_DURATION_MS, parseDuration, readDuration } from '../../src/core/duration.js';
import { LATEST_INSTANT } from '../../src/domains/sim/domain-service.js';
import { WORLD_LIMITS } from '../../src/domains/sim/model.js';
import { loadWorld } from '../../src/domains/scenario/scenario-file.js';
import { buildSimulator, worldProblems } from '../../src/domains/sim/world-config.js';
import { PROVIDER_ID } from '../../src/domains/sim/providers.js';
import { packageFile } from '../../src/assets.js';

// The pure simulator's bounds: durations, the clock's last instant, and what one world may hold.
const world = await loadWorld();
const DAY = 86_400_000;

function simulator(start?: number) {
  return buildSimulator(world, { zones: [{ apex: 'example.com', provider: 'flexdns' }] }, { start }).simulator;
}

describe('durations are bounded (10 years)', () => {
  it.each([
    ['3650d', MAX_DURATION_MS],
    ['87600h', MAX_DURATION_MS],
    ['1h30m', 5_400_000],
  ])('%s is accepted', (text, ms) => expect(readDuration(text)).toEqual({ ok: true, ms }));

  it.each(['3650d1ms', '3651d', '99999999999999999999d', `${'9'.repeat(400)}d`, '2 days', '', '1e3d'])(
    '%j is refused with a reason',
    (text) => {
      const read = readDuration(text);
      expect(read).toEqual({ ok: false, reason: expect.stringMatching(/is (not a duration|longer than the 3650d)/) });
      expect(parseDuration(text)).toBeUndefined();
    },
  );

  it('quotes a long refused value short', () => {
    const read = readDuration(`${'1'.repeat(5000)}d`);
    expect(read.ok).toBe(false);
    expect(!read.ok && read.reason.length).toBeLessThan(120);
  });
});

describe('the clock never passes LATEST_INSTANT', () => {
  it('refuses an advance beyond it and leaves the clock where it was', () => {
    const near = simulator(LATEST_INSTANT - DAY);
    expect(near.advance(2 * DAY)).toMatchObject({ ok: false, code: 'clock_limit' });
    expect(near.now).toBe(LATEST_INSTANT - DAY);
    expect(near.advance(DAY)).toEqual({ ok: true, value: LATEST_INSTANT });
    expect(new Date(near.now).toISOString()).toBe('9000-01-01T00:00:00.000Z');
  });

  it('refuses what is not a forward duration', () => {
    const sim = simulator();
    for (const ms of [-1, Number.NaN, Number.POSITIVE_INFINITY])
      expect(sim.advance(ms)).toMatchObject({ ok: false, code: 'invalid_duration' });
  });

  it('ten years with an issued certificate renew on the way, and every instant stays a valid date', () => {
    const sim = simulator();
    sim.addDomain(world.project.id, 'docs.example.com');
    sim.addRecord({ name: 'docs.example.com', type: 'CNAME', data: 'petstore-docs.kennel-pages.dev', published: true });
    sim.verify(world.project.id, 'docs.example.com');
    expect(sim.advance(MAX_DURATION_MS).ok).toBe(true);
    const certificate = sim.domain(world.project.id, 'docs.example.com')!.certificate;
    expect(certificate.state).toBe('issued');
    expect(new Date(certificate.issued!.notAfter).toISOString()).toMatch(/^\d{4}-/);
  });
});

describe('a world holds at most WORLD_LIMITS', () => {
  it('zones', () => {
    const sim = simulator();
    for (let index = 1; index < WORLD_LIMITS.zones; index += 1)
      expect(sim.addZone(`zone${index}.example`, 'flexdns').ok).toBe(true);
    expect(sim.addZone('one-more.example', 'flexdns')).toMatchObject({ ok: false, code: 'zone_limit' });
    expect(sim.addZone('example.com', 'laxdns').ok, 'replacing a zone adds none').toBe(true);
  });

  it('records, counting the platform’s own; removed records are forgotten', () => {
    const sim = simulator();
    const free = WORLD_LIMITS.records - sim.zones.recordCount();
    for (let index = 0; index < free; index += 1)
      expect(sim.addRecord({ name: 'example.com', type: 'TXT', data: `r${index}` }).ok).toBe(true);
    expect(sim.addRecord({ name: 'example.com', type: 'TXT', data: 'over' })).toMatchObject({
      ok: false,
      code: 'record_limit',
    });
    expect(sim.removeRecords({ name: 'example.com', type: 'TXT', data: 'r0' })).toMatchObject({
      ok: true,
      value: [{ data: 'r0' }],
    });
    expect(sim.addRecord({ name: 'example.com', type: 'TXT', data: 'again' }).ok).toBe(true);
  });

  it('add and remove cycles keep the zone small', () => {
    const sim = simulator();
    const before = sim.zones.recordCount();
    for (let index = 0; index < 3 * WORLD_LIMITS.records; index += 1) {
      expect(sim.addRecord({ name: 'www.example.com', type: 'A', data: '192.0.2.1' }).ok).toBe(true);
      sim.removeRecords({ name: 'www.example.com' });
    }
    expect(sim.zones.recordCount()).toBe(before);
  });

  it('domains per project', () => {
    const sim = simulator();
    for (let index = 0; index < WORLD_LIMITS.domainsPerProject; index += 1)
      expect(sim.addDomain(world.project.id, `d${index}.example.com`).ok).toBe(true);
    expect(sim.addDomain(world.project.id, 'one-more.example.com')).toMatchObject({
      ok: false,
      code: 'domain_limit',
    });
  });
});

describe('provider ids', () => {
  it('are slugs, as NewZone.provider in spec/domains.yaml says: another spelling is refused with its pointer', async () => {
    const providers = world.providers.map((provider, index) =>
      index === 0 ? { ...provider, id: 'Flex_DNS' } : provider,
    );
    const problems = worldProblems({ ...world, providers });
    expect(problems).toContainEqual({ pointer: '/providers/0', message: expect.stringContaining('"Flex_DNS"') });
    expect(worldProblems(world)).toEqual([]);
  });

  it('the rule in code is the pattern spec/domains.yaml states', async () => {
    const document = parse(await readFile(packageFile('spec/domains.yaml'), 'utf8'));
    expect(document.components.schemas.NewZone.properties.provider.pattern).toBe(PROVIDER_ID.source);
  });
});
