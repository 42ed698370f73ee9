import { describe, expect, it } from 'vitest';
import { forcesCannedResponse, parsePrefer } from '../../src/http/prefer.js';

describe('parsePrefer', () => {
  it.each([
    ['code=404', { code: 404 }],
    ['code=401, example=missing-api-key', { code: 401, example: 'missing-api-key' }],
    ['code=401; example="x"', { code: 401, example: 'x' }],
    ['dynamic=true', { dynamic: true }],
    ['respond-async, wait=5', {}],
    ['code=abc', { code: Number.NaN }],
  ])('%s', (header, expected) => {
    expect(parsePrefer(header)).toEqual(expected);
  });

  it('forces a canned response for non-2xx codes and examples only', () => {
    expect(forcesCannedResponse({ code: 200 })).toBe(false);
    expect(forcesCannedResponse({ code: 404 })).toBe(true);
    expect(forcesCannedResponse({ example: 'x' })).toBe(true);
    expect(forcesCannedResponse({ dynamic: true })).toBe(false);
  });
});
