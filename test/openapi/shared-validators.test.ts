import { describe, expect, it } from 'vitest';
import type { OpenApiDocument } from '../../src/openapi/openapi-types.js';
import { KEPT_DOCUMENTS, validatorsFor } from '../../src/openapi/shared-validators.js';

/** A document whose one schema requires `required`, with a title that makes it distinct. */
function documentWith(required: string, title = 'shared'): OpenApiDocument {
  return {
    openapi: '3.1.0',
    info: { title, version: '1' },
    paths: {},
    components: { schemas: { Thing: { type: 'object', required: [required] } } },
  };
}

const THING = '#/components/schemas/Thing';

describe('validatorsFor', () => {
  it('gives one compiled set to documents with the same content, whatever object holds them', () => {
    const first = documentWith('name');
    expect(validatorsFor(structuredClone(first))).toBe(validatorsFor(first));
  });

  it('compiles an edited document anew, and judges by the edit', () => {
    const before = validatorsFor(documentWith('name', 'edited'));
    const after = validatorsFor(documentWith('size', 'edited'));
    expect(after).not.toBe(before);
    expect(before.at(THING)({ name: 'a' })).toEqual([]);
    expect(after.at(THING)({ name: 'a' })).toEqual([{ pointer: '/size', message: 'is required' }]);
  });

  it('is not changed by what a caller later does to its document', () => {
    const document = documentWith('name', 'changed later');
    const validators = validatorsFor(document);
    (document.components!.schemas!.Thing as { required: string[] }).required = ['colour'];
    expect(validators.at(THING)({ name: 'a' })).toEqual([]);
    expect(validatorsFor(documentWith('name', 'changed later'))).toBe(validators);
  });

  it(`keeps the ${KEPT_DOCUMENTS} documents asked for last, no more`, () => {
    const oldest = validatorsFor(documentWith('name', 'oldest'));
    const recent = validatorsFor(documentWith('name', 'recent'));
    for (let index = 0; index < KEPT_DOCUMENTS - 2; index += 1) validatorsFor(documentWith('name', `filler ${index}`));
    expect(validatorsFor(documentWith('name', 'oldest'))).toBe(oldest); // asked for again: now the newest
    validatorsFor(documentWith('name', 'one more'));
    expect(validatorsFor(documentWith('name', 'oldest'))).toBe(oldest);
    expect(validatorsFor(documentWith('name', 'recent'))).not.toBe(recent);
  });
});
