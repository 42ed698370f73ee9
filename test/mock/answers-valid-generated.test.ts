import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// The audit runs kennel as users get it (dist/, built by `npm test` before the suite starts).
import { auditAnswers } from '../../scripts/audit-answers.js';
import { writeDocument } from '../generated/consistency-harness.js';
import { generateDocument } from '../generated/document-generator.js';
import { parseFeatures } from '../generated/features.js';

// Random valid documents with every generator feature on (test/generated/): each answer of kennel
// serve, to every documented status and example Prefer asks for, is valid against its document.
const SEEDS = Array.from({ length: Number(process.env.KENNEL_AUDIT_SEEDS ?? 12) }, (_, index) => index + 1);

let directory: string;
beforeAll(async () => {
  directory = await mkdtemp(path.join(os.tmpdir(), 'kennel-audit-'));
});
afterAll(() => rm(directory, { recursive: true, force: true }));

describe('every answer of kennel serve to a generated document is valid against it', () => {
  it.each(SEEDS)('seed %i', async (seed) => {
    const file = await writeDocument(generateDocument(seed, { features: parseFeatures('all') }), directory);
    const result = await auditAnswers(file);
    expect(result.findings).toEqual([]);
    expect(result.exchanges).toBeGreaterThanOrEqual(result.operations);
  });
});
