import { describe, expect, it } from 'vitest';
import { Random } from '../../src/core/random.js';
import { sampleOf, validValue } from '../../src/openapi/generate.js';
import { patternValue } from '../../src/openapi/pattern-value.js';

describe('strings for a schema pattern', () => {
  it.each([
    '^[A-Z]{2}-\\d{3}$',
    '^\\d+$',
    '^[a-z0-9._-]+@example\\.com$',
    '^(foo|bar)[0-9]{2,4}$',
    '^[^\\s/]{3,5}$',
    '^(?:v\\d+)(\\.\\d+)?$',
    'sku-\\w{4}',
    '^#[0-9a-fA-F]{6}$',
    // Unanchored, ending in a plain literal: the parser once stepped past the last atom.
    'payTo|upi_collect',
    'abc',
  ])('%s', (pattern) => {
    for (let seed = 1; seed <= 20; seed += 1) {
      const text = patternValue(pattern, new Random(seed));
      expect(text).toBeDefined();
      expect(new RegExp(pattern, 'u').test(text!)).toBe(true);
    }
  });

  it('reads lookarounds and back-references, checks each draw, and gives up on what no draw matches', () => {
    expect(patternValue('^(?=a)a$', new Random(1))).toBe('a');
    expect(patternValue('^(a|b)\\1$', new Random(1))).toMatch(/^(aa|bb)$/);
    expect(patternValue('^\\p{L}+$', new Random(1))).toBeUndefined();
    expect(patternValue('^(?!x)[xy]$', new Random(1))).toBe('y');
  });

  it('meets length bounds with the pattern, or says it cannot', () => {
    expect(patternValue('^\\d+$', new Random(2), { minLength: 12, maxLength: 12 })).toMatch(/^\d{12}$/);
    expect(patternValue('^[a-z]{2}$', new Random(2), { minLength: 5 })).toBeUndefined();
  });

  it('the shared generator uses it for the checker and the mock, within the length bounds', () => {
    const schema = { type: 'string', pattern: '^[A-Z]{3}[0-9]{4}$', maxLength: 7 };
    expect(validValue(schema, { random: new Random(4), tag: 'run' })).toMatch(/^[A-Z]{3}[0-9]{4}$/);
    expect(sampleOf(schema)).toMatch(/^[A-Z]{3}[0-9]{4}$/);
    // A pattern the bounds rule out falls back to the plain value.
    expect(sampleOf({ type: 'string', pattern: '^a{10}$', maxLength: 3 })).toBe('str');
  });
});
