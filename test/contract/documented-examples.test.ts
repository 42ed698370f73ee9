import { describe, expect, it } from 'vitest';
import { fromDocumentedExample } from '../../src/contract/checks/documented-examples.js';

// A document whose own examples break its schema (Docker's `Created: {type: integer, example: "1644009612"}`).
const image = {
  type: 'object',
  required: ['Id', 'Created'],
  properties: { Id: { type: 'string' }, Created: { type: 'integer', example: '1644009612' } },
};
const list = { type: 'array', items: { allOf: [image] } };

describe("a schema failure that is the document's own example", () => {
  it.each([
    ['the property holds its own example', { Id: 'a', Created: '1644009612' }, '/Created', true],
    ['the property holds another value', { Id: 'a', Created: 'yesterday' }, '/Created', false],
  ])('%s', (_label, body, pointer, expected) => {
    expect(fromDocumentedExample(image, body, pointer, [])).toBe(expected);
  });

  it('looks through arrays and allOf, and at whole-item examples', () => {
    expect(fromDocumentedExample(list, [{ Id: 'a', Created: '1644009612' }], '/0/Created', [])).toBe(true);
    const itemExample = { ...image, example: { Id: 'x' } };
    expect(fromDocumentedExample({ type: 'array', items: itemExample }, [{ Id: 'x' }], '/0/Created', [])).toBe(true);
    expect(fromDocumentedExample({ type: 'array', items: itemExample }, [{ Id: 'y' }], '/0/Created', [])).toBe(false);
  });

  it('a body equal to a media example of the response', () => {
    expect(fromDocumentedExample(image, { Id: 'z' }, '/Created', [{ Id: 'z' }])).toBe(true);
    expect(fromDocumentedExample(image, { Id: 'w' }, '/Created', [{ Id: 'z' }])).toBe(false);
  });
});
