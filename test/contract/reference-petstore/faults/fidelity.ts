import type { PetstoreFault } from '../model.js';

/** Data fidelity: what is read back is not what was written. */
export const FIDELITY_FAULTS = [
  {
    name: 'lost-write',
    description: 'createPet answers 201 with an id but does not store the pet',
    checks: ['data-fidelity', 'filter-honoured', 'list-freshness', 'positive-data-acceptance', 'resource-round-trip'],
    hooks: { stored: () => undefined },
  },
  {
    name: 'status-dropped',
    description: 'The stored pet loses its status: the 201 body has it, later reads do not',
    checks: ['filter-honoured', 'list-freshness', 'resource-round-trip'],
    hooks: { stored: ({ status: _dropped, ...pet }) => pet },
  },
  {
    name: 'categoryid-precision-lost',
    description: 'categoryId goes through a double: values above 2^53 lose precision',
    checks: ['data-fidelity', 'resource-round-trip', 'response-schema-conformance'],
    hooks: { storedCategoryId: (categoryId) => Number(categoryId) },
  },
  {
    name: 'name-truncated',
    description: 'Names are stored truncated to 8 characters',
    checks: ['data-fidelity', 'resource-round-trip'],
    hooks: { storedName: (name) => Array.from(name).slice(0, 8).join('') },
  },
  {
    name: 'name-nfc-normalised',
    description: 'Names are stored NFC-normalised: decomposed accents come back composed',
    checks: ['data-fidelity'],
    hooks: { storedName: (name) => name.normalize('NFC') },
  },
  {
    name: 'name-control-stripped',
    description: 'Control characters, tab and newline included, are stripped from names',
    checks: ['data-fidelity'],
    hooks: { storedName: (name) => name.replace(/[\u0000-\u001f\u007f]/g, '') },
  },
  {
    name: 'name-truncated-255',
    description: 'Names are stored cut to 255 UTF-16 code units (a VARCHAR(255))',
    checks: ['data-fidelity'],
    hooks: { storedName: (name) => name.slice(0, 255) },
  },
  {
    name: 'name-astral-replaced',
    description: 'Characters beyond the BMP (emoji) are stored as "?" (3-byte UTF-8)',
    checks: ['data-fidelity'],
    hooks: { storedName: (name) => name.replace(/[\u{10000}-\u{10ffff}]/gu, '?') },
  },
  {
    name: 'name-html-escaped',
    description: 'Names are HTML-escaped when stored: <, >, & and " become entities',
    checks: ['data-fidelity'],
    hooks: {
      storedName: (name) =>
        name.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;'),
    },
  },
  {
    name: 'name-trimmed',
    description: 'Names are stored with surrounding whitespace trimmed',
    checks: ['data-fidelity'],
    hooks: { storedName: (name) => name.trim() },
  },
  {
    name: 'list-backslash-unescaped',
    description: 'List JSON is assembled by hand and un-doubles backslashes: C:\\new comes back with a newline',
    checks: ['data-fidelity'],
    hooks: { listText: (correct) => correct.replaceAll('\\\\', '\\') },
  },
  {
    name: 'categoryid-negative-via-double',
    description: 'Negative categoryIds are parsed through a double: below -2^53 they lose precision',
    checks: ['data-fidelity'],
    hooks: { storedCategoryId: (categoryId) => (categoryId < 0 ? BigInt(Number(categoryId)) : categoryId) },
  },
] as const satisfies readonly PetstoreFault[];
