import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/core/clock.js';
import { readInstant } from '../../src/core/instant.js';
import { ChaosEngine } from '../../src/mock/chaos/chaos-engine.js';
import { readChaosSettings } from '../../src/mock/chaos/chaos-rules.js';
import { faultFlag, latencyFlag, parseFault, parseLatency } from '../../src/mock/chaos/chaos-syntax.js';
import type { ChaosRule, Latency } from '../../src/mock/chaos/chaos-types.js';

describe('the compact chaos syntax', () => {
  it.each([
    ['200ms', { kind: 'fixed', ms: 200 }],
    ['1.5s', { kind: 'fixed', ms: 1500 }],
    ['100-300ms', { kind: 'uniform', minMs: 100, maxMs: 300 }],
    ['100ms-2s', { kind: 'uniform', minMs: 100, maxMs: 2000 }],
    ['1-2s', { kind: 'uniform', minMs: 1000, maxMs: 2000 }],
    ['normal:200ms:50ms', { kind: 'normal', meanMs: 200, sdMs: 50 }],
    ['exponential:100ms', { kind: 'exponential', meanMs: 100 }],
    ['exp:1s', { kind: 'exponential', meanMs: 1000 }],
  ])('latency %s', (text, latency) => {
    expect(parseLatency(text)).toEqual({ ok: true, value: latency });
  });

  it.each(['200', 'fast', '300-100ms', '61s', 'normal:200ms', 'uniform:1ms:2ms', '1h'])(
    'latency %s is refused',
    (text) => {
      const read = parseLatency(text);
      expect(read.ok).toBe(false);
      expect(read.ok ? '' : read.reason).toContain(JSON.stringify(text));
    },
  );

  it.each([
    ['reset', { kind: 'reset' }],
    ['timeout', { kind: 'timeout', holdMs: 60_000 }],
    ['timeout:10s', { kind: 'timeout', holdMs: 10_000 }],
    ['malformed', { kind: 'malformed' }],
    ['503', { kind: 'status', status: 503 }],
    ['rate-limit:10/1s', { kind: 'rate-limit', limit: 10, windowMs: 1000 }],
    ['rate-limit:100/m', { kind: 'rate-limit', limit: 100, windowMs: 60_000 }],
  ])('fault %s', (text, fault) => {
    expect(parseFault(text)).toEqual({ ok: true, value: fault });
  });

  it.each([
    'explode',
    '200',
    '600',
    'timeout:10',
    'timeout:1h',
    'rate-limit',
    'rate-limit:0/1s',
    'rate-limit:10',
    'reset:now',
  ])('fault %s is refused', (text) => expect(parseFault(text).ok).toBe(false));

  it.each<[string, ChaosRule]>([
    ['100-300ms', { match: '*', latency: { kind: 'uniform', minMs: 100, maxMs: 300 }, probability: 1 }],
    ['getPet:2s:10%', { match: 'getPet', latency: { kind: 'fixed', ms: 2000 }, probability: 0.1 }],
    [
      'getPet:normal:200ms:50ms',
      { match: 'getPet', latency: { kind: 'normal', meanMs: 200, sdMs: 50 }, probability: 1 },
    ],
    ['*:exp:100ms:0.5', { match: '*', latency: { kind: 'exponential', meanMs: 100 }, probability: 0.5 }],
  ])('--latency %s', (text, rule) => {
    expect(latencyFlag(text)).toEqual({ ok: true, value: rule });
  });

  it.each<[string, ChaosRule]>([
    ['getPet:reset:0.1', { match: 'getPet', fault: { kind: 'reset' }, probability: 0.1 }],
    ['503:5%', { match: '*', fault: { kind: 'status', status: 503 }, probability: 0.05 }],
    ['listPets:timeout:5s', { match: 'listPets', fault: { kind: 'timeout', holdMs: 5000 }, probability: 1 }],
    ['timeout:0.5', { match: '*', fault: { kind: 'timeout', holdMs: 60_000 }, probability: 0.5 }],
    [
      'createPet:rate-limit:10/1s',
      { match: 'createPet', fault: { kind: 'rate-limit', limit: 10, windowMs: 1000 }, probability: 1 },
    ],
  ])('--fault %s', (text, rule) => {
    expect(faultFlag(text)).toEqual({ ok: true, value: rule });
  });

  it.each([
    ['getPet:', 'nothing after the operation'],
    ['getPet:reset:0.1:x', 'too many parts'],
    ['getPet:reset:150%', 'not a probability'],
    ['rate-limit:5/1s:0.5', 'takes no probability'],
    ['getPet:boom', 'not a fault'],
  ])('--fault %s is refused: %s', (text, reason) => {
    const read = faultFlag(text);
    expect(read.ok ? '' : read.reason).toContain(reason);
  });
});

describe('a chaos table (file or PUT body)', () => {
  it('reads the compact and the object forms alike', () => {
    const compact = readChaosSettings({
      seed: 4,
      rules: [{ match: 'getPet', latency: '5-10ms', fault: 'timeout:2s' }],
    });
    const objects = readChaosSettings({
      seed: 4,
      rules: [
        {
          match: 'getPet',
          latency: { kind: 'uniform', minMs: 5, maxMs: 10 },
          fault: { kind: 'timeout', holdMs: 2000 },
          probability: 1,
        },
      ],
    });
    expect(compact).toEqual(objects);
    expect(compact.ok && compact.settings.rules[0]!.fault).toEqual({ kind: 'timeout', holdMs: 2000 });
  });

  it.each([
    [{ rules: [{ fault: 'reset', probabilty: 0.5 }] }, '/rules/0/probabilty'],
    [{ rules: [{ fault: { kind: 'status', status: 302 } }] }, '/rules/0/fault/status'],
    [{ rules: [{ fault: { kind: 'reset', extra: 1 } }] }, '/rules/0/fault/extra'],
    [{ rules: [{ latency: { kind: 'uniform', minMs: 9, maxMs: 1 } }] }, '/rules/0/latency/maxMs'],
    [{ rules: [{ latency: { kind: 'gamma' } }] }, '/rules/0/latency/kind'],
    [{ seed: -1, rules: [] }, '/seed'],
    [{ rules: Array.from({ length: 101 }, () => ({ fault: 'reset' })) }, '/rules'],
    [{ rules: [{ 'a/b': 1, fault: 'reset' }] }, '/rules/0/a~1b'],
  ])('%j is refused at %s', (value, pointer) => {
    expect(readChaosSettings(value)).toMatchObject({ ok: false, pointer });
  });

  it('names each allowed field once', () => {
    expect(readChaosSettings({ rules: [{ fault: { kind: 'status', status: 503, extra: 1 } }] })).toMatchObject({
      ok: false,
      reason: 'is not allowed here (fields: kind, status)',
    });
  });
});

function engineOf(rules: ChaosRule[], seed = 1, clock = new ManualClock(0)): ChaosEngine {
  return new ChaosEngine({ rules }, seed, clock);
}

function samples(latency: Latency, count: number): number[] {
  const engine = engineOf([{ match: '*', latency, probability: 1 }]);
  return Array.from({ length: count }, () => engine.decide('op', '')?.delayMs ?? 0);
}

const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;

describe('the chaos engine', () => {
  it('draws delays from their distribution (seeded: the same every run)', () => {
    const uniform = samples({ kind: 'uniform', minMs: 100, maxMs: 300 }, 2000);
    expect(Math.min(...uniform)).toBeGreaterThanOrEqual(100);
    expect(Math.max(...uniform)).toBeLessThanOrEqual(300);
    expect(mean(uniform)).toBeCloseTo(200, -1);
    const normal = samples({ kind: 'normal', meanMs: 200, sdMs: 50 }, 2000);
    expect(mean(normal)).toBeCloseTo(200, -1);
    const sd = Math.sqrt(mean(normal.map((value) => (value - 200) ** 2)));
    expect(sd).toBeGreaterThan(45);
    expect(sd).toBeLessThan(55);
    const exponential = samples({ kind: 'exponential', meanMs: 100 }, 4000);
    expect(mean(exponential)).toBeGreaterThan(90);
    expect(mean(exponential)).toBeLessThan(110);
    expect(Math.min(...exponential)).toBeGreaterThanOrEqual(0);
  });

  it('fires a rule at its probability, adds the delays of every rule that fires, the first fault wins', () => {
    const engine = engineOf([
      { match: '*', latency: { kind: 'fixed', ms: 10 }, probability: 1 },
      { match: 'getPet', latency: { kind: 'fixed', ms: 5 }, fault: { kind: 'reset' }, probability: 1 },
      { match: 'getPet', fault: { kind: 'malformed' }, probability: 1 },
    ]);
    expect(engine.decide('getPet', '')).toEqual({ delayMs: 15, fault: { kind: 'reset' }, cause: 'rule 1, rule 2' });
    expect(engine.decide('listPets', '')).toEqual({ delayMs: 10, fault: undefined, cause: 'rule 1' });
    const tenth = engineOf([{ match: '*', fault: { kind: 'reset' }, probability: 0.1 }]);
    const fired = Array.from({ length: 5000 }, () => tenth.decide('op', '')).filter(Boolean).length;
    expect(fired / 5000).toBeGreaterThan(0.08);
    expect(fired / 5000).toBeLessThan(0.12);
    const never = engineOf([{ match: '*', fault: { kind: 'reset' }, probability: 0 }]);
    expect(Array.from({ length: 100 }, () => never.decide('op', '')).filter(Boolean)).toEqual([]);
  });

  it('counts a rate limit per caller in fixed windows on its clock, with the seconds to wait', () => {
    const clock = new ManualClock(1_000_000);
    const engine = engineOf(
      [{ match: '*', fault: { kind: 'rate-limit', limit: 2, windowMs: 10_000 }, probability: 1 }],
      1,
      clock,
    );
    expect([engine.decide('op', 'a'), engine.decide('op', 'a')]).toEqual([undefined, undefined]);
    clock.advance(2500);
    expect(engine.decide('op', 'a')).toMatchObject({ fault: { kind: 'rate-limit' }, retryAfterS: 8 });
    expect(engine.decide('op', 'b')).toBeUndefined();
    clock.advance(7500);
    expect(engine.decide('op', 'a')).toBeUndefined();
  });

  it('caps the delay several rules add up to', () => {
    const engine = engineOf([
      { match: '*', latency: { kind: 'fixed', ms: 40_000 }, probability: 1 },
      { match: '*', latency: { kind: 'fixed', ms: 40_000 }, probability: 1 },
    ]);
    expect(engine.decide('op', '')!.delayMs).toBe(60_000);
  });
});

describe('instants (--now, Prefer: now, PUT /__kennel/now)', () => {
  it.each([
    ['2030-12-06', Date.UTC(2030, 11, 6)],
    ['2030-12-06T09:30:00Z', Date.UTC(2030, 11, 6, 9, 30)],
    ['2030-12-06T09:30:00.5+01:00', Date.UTC(2030, 11, 6, 8, 30, 0, 500)],
    ['2030-12-06T09:30-02:30', Date.UTC(2030, 11, 6, 12, 0)],
  ])('%s', (text, ms) => expect(readInstant(text)).toEqual({ ok: true, ms }));

  it.each(['2030-12-06T09:30:00', '2030-02-30', '2030-13-01', '1969-12-31', 'tomorrow', '2030-12-06T24:00Z', ''])(
    '%s is refused',
    (text) => expect(readInstant(text).ok).toBe(false),
  );
});
