import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
// The audit runs kennel as users get it (dist/, built by `npm test` before the suite starts).
import { auditAnswers } from '../../scripts/audit-answers.js';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));
const documents = [
  here('../../spec/petstore.yaml'),
  ...readdirSync(here('../fixtures/mock-documents'))
    .filter((name) => name.endsWith('.yaml'))
    .map((name) => here(`../fixtures/mock-documents/${name}`)),
  here('../fixtures/resources/shop.yaml'),
];

describe('every answer of kennel serve is valid against its document (scripts/audit-answers.js)', () => {
  it.each(documents)('%s', async (file) => {
    const result = await auditAnswers(file);
    expect(result.findings).toEqual([]);
    expect(result.exchanges).toBeGreaterThanOrEqual(result.operations);
  });
});
