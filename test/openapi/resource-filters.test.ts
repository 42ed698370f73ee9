import { describe, expect, it } from 'vitest';
import { filtersOf, nestedFiltersOf, type ResolvedParameter } from '../../src/openapi/resource-list.js';

const query = (name: string, schema: object): ResolvedParameter =>
  ({ name, in: 'query', required: false, explode: true, resolved: schema }) as unknown as ResolvedParameter;

describe('list filters', () => {
  const items = {
    type: 'object',
    properties: {
      status: { type: 'string' },
      dogs_allowed: { type: 'boolean' },
      bicyclesAllowed: { type: 'boolean' },
      wifi: { type: 'boolean' },
      wifi_paid: { type: 'boolean' },
      seats_free: { type: 'boolean' },
      seats_reserved: { type: 'boolean' },
    },
  };

  it('reads a boolean flag as the boolean property it names, itself or by its first word', () => {
    const filters = filtersOf(
      [
        query('dogs', { type: 'boolean' }),
        query('bicycles', { type: 'boolean' }),
        query('wifi', { type: 'boolean' }),
        query('seats', { type: 'boolean' }),
        query('status', { type: 'string', enum: ['a', 'b'] }),
      ],
      items,
    );
    expect(filters.map((filter) => [filter.name, filter.property, filter.type])).toEqual([
      ['dogs', 'dogs_allowed', 'boolean'],
      ['bicycles', 'bicyclesAllowed', 'boolean'],
      ['wifi', 'wifi', 'boolean'], // its namesake wins over wifi_paid
      ['status', 'status', 'string'],
    ]); // `seats` names two properties: no filter
  });

  it('reads a string parameter naming a field of exactly one object property as a nested filter', () => {
    const venue = {
      type: 'object',
      properties: {
        name: { type: 'string' },
        address: { type: 'object', properties: { city: { type: 'string' }, zip: { type: 'string' } } },
        billing: { type: 'object', properties: { zip: { type: 'string' } } },
        tags: { type: 'array', items: { type: 'object', properties: { label: { type: 'string' } } } },
      },
    };
    const nested = nestedFiltersOf(
      [
        query('city', { type: 'string' }),
        query('zip', { type: 'string' }), // two objects have a zip: ambiguous
        query('label', { type: 'string' }), // inside an array: not one field
        query('name', { type: 'string' }), // an item property itself: a plain filter
      ],
      venue,
    );
    expect(nested).toEqual([{ name: 'city', path: ['address', 'city'] }]);
  });
});
