import { describe, expect, it } from 'vitest';
import { PathMatcher } from '../../src/mock/routing/path-matcher.js';

// Segments that are all literal or one parameter alone are compared as text (no expression per
// request); these pin that the text comparison answers what the expressions answered.
const matcher = new PathMatcher(
  ['/pets', '/pets/{petId}', '/pets/mine', '/Stores/{a}{b}', '/caf%C3%A9/{id}', '/a//b'].map((template) => ({
    template,
    value: template,
  })),
);
const templates = (path: string) => matcher.match(path).map((match) => [match.template, match.params]);

describe('PathMatcher', () => {
  it('takes a segment that is one parameter alone whole, decoded', () => {
    expect(templates('/pets/a%2Fb')).toEqual([['/pets/{petId}', { petId: 'a/b' }]]);
  });

  it('puts the literal segment first and still offers the parameter', () => {
    expect(templates('/pets/mine')).toEqual([
      ['/pets/mine', {}],
      ['/pets/{petId}', { petId: 'mine' }],
    ]);
  });

  it('never takes an empty segment as a parameter', () => {
    expect(templates('/pets//')).toEqual([]);
    expect(templates('/a//b')).toEqual([['/a//b', {}]]);
  });

  it('compares literal text ignoring case only when nothing matched with case', () => {
    expect(templates('/PETS')).toEqual([['/pets', {}]]);
    expect(templates('/stores/x1')).toEqual([['/Stores/{a}{b}', { a: 'x', b: '1' }]]);
  });

  it('compares a percent-encoded literal decoded', () => {
    expect(templates('/café/7')).toEqual([['/caf%C3%A9/{id}', { id: '7' }]]);
    expect(templates('/caf%C3%A9/7')).toEqual([['/caf%C3%A9/{id}', { id: '7' }]]);
  });
});
