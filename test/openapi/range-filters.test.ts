import { describe, expect, it } from 'vitest';
import { inRange, rangeFiltersOf, rangeSlackMs, type RangeFilter } from '../../src/openapi/range-filters.js';
import type { ResolvedParameter } from '../../src/openapi/resource-list.js';

const query = (name: string, schema: object): ResolvedParameter =>
  ({ name, in: 'query', required: false, explode: true, resolved: schema }) as unknown as ResolvedParameter;
const date = { type: 'string', format: 'date' };
const dateTime = { type: 'string', format: 'date-time' };

describe('range filters', () => {
  it('reads the bound from a word of the name and the property from the rest, or the only date', () => {
    const items = {
      type: 'object',
      properties: {
        starts_at: dateTime,
        created_at: dateTime,
        price: { type: 'number' },
        dates: { type: 'array', items: date },
        from: { type: 'string' },
      },
    };
    const ranges = rangeFiltersOf(
      [
        query('starts_after', dateTime),
        query('createdBefore', dateTime),
        query('min_price', { type: 'number' }),
        query('max', { type: 'integer' }), // a limit, not a bound of anything
        query('from', { type: 'string' }), // a place, not a date
        query('startDate', date), // "date" names `dates`, in the plural
      ],
      items,
    );
    expect(ranges.map((range) => [range.name, range.property, range.bound])).toEqual([
      ['starts_after', 'starts_at', 'lower'],
      ['createdBefore', 'created_at', 'upper'],
      ['min_price', 'price', 'lower'],
      ['startDate', 'dates', 'lower'],
    ]);
    const events = { type: 'object', properties: { name: { type: 'string' }, dates: { type: 'array', items: date } } };
    expect(rangeFiltersOf([query('startDate', date), query('endDate', date)], events)).toEqual([
      { name: 'startDate', property: 'dates', bound: 'lower', kind: 'date', propertyKind: 'date' },
      { name: 'endDate', property: 'dates', bound: 'upper', kind: 'date', propertyKind: 'date' },
    ]);
  });

  it('keeps values on the bound’s side, the bound included, a date upper bound for its whole day', () => {
    const upper: RangeFilter = { name: 'to', property: 'at', bound: 'upper', kind: 'date', propertyKind: 'date-time' };
    expect(inRange('2030-12-05T23:59:00Z', upper, '2030-12-05')).toBe(true);
    expect(inRange('2030-12-06T00:00:00Z', upper, '2030-12-05')).toBe(false);
    expect(inRange('2030-12-06T00:30:00+01:00', upper, '2030-12-05')).toBe(true); // 23:30 UTC
    expect(inRange('2030-12-06T10:00:00Z', upper, '2030-12-05', rangeSlackMs(upper))).toBe(true);
    const lower: RangeFilter = { name: 'from', property: 'dates', bound: 'lower', kind: 'date', propertyKind: 'date' };
    expect(inRange(['2030-01-01', '2030-12-05'], lower, '2030-12-05')).toBe(true);
    expect(inRange(['2030-01-01'], lower, '2030-12-05')).toBe(false);
    expect(inRange('not a date', lower, '2030-12-05')).toBe(true); // the schema is its judge
  });
});
