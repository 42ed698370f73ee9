import { describe, expect, it } from 'vitest';
import { atBounds, pastBounds } from '../../src/contract/prepare/bound-cases.js';
import { formatVariants, malformedValues } from '../../src/contract/prepare/format-cases.js';

const values = (cases: { value: unknown }[]) => cases.map((item) => item.value);

describe('values at and past each documented bound', () => {
  it.each([
    ['integer, inclusive', { type: 'integer', minimum: 1, maximum: 30 }, [1, 30], [0, 31]],
    ['number, 3.1 exclusive', { type: 'number', exclusiveMinimum: 0, maximum: 5 }, [5, 0.5], [5.5, 0]],
    [
      'integer, 3.0 exclusive',
      { type: 'integer', minimum: 0, exclusiveMinimum: true, maximum: 9, exclusiveMaximum: true },
      [1, 8],
      [0, 9],
    ],
    ['string lengths', { type: 'string', minLength: 2, maxLength: 4 }, ['kk', 'kkkk'], ['k', 'kkkkk']],
  ])('%s', (_name, schema, at, past) => {
    expect(values(atBounds(schema))).toEqual(at);
    expect(values(pastBounds(schema))).toEqual(past);
  });

  it('leaves strings with a pattern or format to their own cases at the bounds, and breaks a pattern', () => {
    expect(atBounds({ type: 'string', maxLength: 9, pattern: '^[a-z]+$' })).toEqual([]);
    expect(values(pastBounds({ type: 'string', pattern: '^[a-z]+$' }))).toEqual(['!']);
  });

  it('builds no string or array longer than 10,000 to test a bound', () => {
    expect(pastBounds({ type: 'string', maxLength: 1_000_000 })).toEqual([]);
    expect(values(pastBounds({ type: 'array', minItems: 2, maxItems: 3 }, 'x'))).toEqual([['x'], ['x', 'x', 'x', 'x']]);
  });
});

describe('format cases', () => {
  it('malforms uuids, dates and date-times, and spells date-times with offsets', () => {
    expect(values(malformedValues({ type: 'string', format: 'uuid' }))).toContain('not-a-uuid');
    expect(values(malformedValues({ type: 'string', format: 'date' }))).toContain('2030-13-05');
    expect(
      malformedValues({ type: 'string', format: 'date-time' }).find((item) => !/[Z+-]\d*:?\d*$/.test(item.value)),
    ).toBeDefined();
    expect(values(formatVariants({ type: 'string', format: 'date-time' }))).toEqual([
      '2030-12-05T09:30:00+02:00',
      '2030-12-05T09:30:00.250-05:00',
    ]);
    expect(malformedValues({ type: 'string', format: 'hostname' })).toEqual([]);
  });
});
