import { describe, expect, it } from 'vitest';
import { withRealisticText } from '../../src/store/realistic-text.js';
import { fakerFor } from '../../src/store/seed.js';

const SCHEMA = {
  type: 'object',
  properties: {
    title: { type: 'string' },
    email: { type: 'string' },
    first_name: { type: 'string' },
    username: { type: 'string' },
    code: { type: 'string' },
    homepage: { type: 'string', format: 'uri' },
    summary: { type: 'string', maxLength: 3 },
    count: { type: 'integer' },
  },
};
const GENERATED = {
  title: 'kennel-0-title-abcd',
  email: 'kennel-0-email-abcd',
  first_name: 'kennel-0-first_name-abcd',
  username: 'kennel-0-username-abcd',
  code: 'kennel-0-code-abcd',
  homepage: 'https://example.com/x',
  summary: 'abc',
  count: 4,
};

describe('seeded free text reads as a person would write it', () => {
  const item = withRealisticText(GENERATED, SCHEMA, fakerFor(1));

  it('by property name: a title, an email, a first name', () => {
    expect(item.title).toMatch(/^[A-Z][a-z]+( [a-z]+)+$/);
    expect(item.email).toMatch(/^[^@\s]+@[^@\s]+\.[a-z]+$/);
    expect(item.first_name).toMatch(/^[A-Z][a-z'-]+$/);
    expect(item.username).toMatch(/^\S+$/);
  });

  it('keeps what the name says nothing about, what has a format, and what the new text would not fit', () => {
    expect(item.code).toBe(GENERATED.code);
    expect(item.homepage).toBe(GENERATED.homepage);
    expect(item.summary).toBe('abc');
    expect(item.count).toBe(4);
  });

  it('is the same for the same seed', () => {
    expect(withRealisticText(GENERATED, SCHEMA, fakerFor(1))).toEqual(item);
    expect(withRealisticText(GENERATED, SCHEMA, fakerFor(2)).title).not.toBe(item.title);
  });
});
