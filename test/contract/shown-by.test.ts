import { describe, expect, it } from 'vitest';
import { shownBy } from '../../src/contract/checks/shown-properties.js';

describe('shownBy: a response shows a sent value under a type that admits it', () => {
  const response = {
    type: 'object',
    properties: {
      name: { type: 'string' },
      estimate: { type: 'object', properties: { currency: { type: 'string' }, value: { type: 'number' } } },
      price: { type: 'number' },
      secret: { type: 'string', writeOnly: true },
      anything: {},
    },
  };
  const shown = shownBy(response);

  it('compares what the response declares with a fitting type', () => {
    expect(shown('name', 'Rex')).toBe(true);
    expect(shown('price', 12.75)).toBe(true);
    expect(shown('price', 12)).toBe(true); // an integer is a number
    expect(shown('anything', [1, 2])).toBe(true); // no type: anything goes
  });

  it('leaves out a name the response gives another shape, an undeclared one and a writeOnly one', () => {
    expect(shown('estimate', 12.75)).toBe(false); // sent as a number, shown as {currency, value}
    expect(shown('missing', 'x')).toBe(false);
    expect(shown('secret', 'x')).toBe(false);
  });
});
