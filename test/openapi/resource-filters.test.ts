import { describe, expect, it } from 'vitest';
import { filtersOf, type ResolvedParameter } from '../../src/openapi/resource-list.js';

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
});
