import { describe, expect, it } from 'vitest';
import { describeSeconds, readDuration } from '../../src/core/duration.js';

describe('describeSeconds', () => {
  it.each([
    [0, '0s'],
    [45, '45s'],
    [90, '1m30s'],
    [300, '5m'],
    [3600, '1h'],
    [85_800, '23h50m'],
    [86_400, '1d'],
    [121_000, '1d9h36m40s'],
  ])('%i s reads %s, in the largest units (never "1430m")', (seconds, text) => {
    expect(describeSeconds(seconds)).toBe(text);
  });

  it('writes what a scenario step accepts back', () => {
    expect(readDuration(describeSeconds(85_800))).toMatchObject({ ok: true, ms: 85_800_000 });
  });
});
