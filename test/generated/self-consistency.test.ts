import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runContract } from '../../src/contract/run/runner.js';
import { startMock } from '../../src/serve/server.js';
import { loadDocument } from '../../src/openapi/load.js';
import { checkGenerated, writeDocument, type Kennel, type SeedOutcome } from './consistency-harness.js';
import { generateDocument } from './document-generator.js';
import { parseFeatures } from './features.js';

// kennel serve and kennel check read a document alike, so checking the mock of any valid document
// finds nothing. The quick count: the long one is `npm run bench:consistency` (docs/self-consistency.md).

// Every feature is on: a feature switched off here waits for the area that makes kennel serve and
// kennel check agree on it, named in a comment (none today).
const FEATURES = parseFeatures('all');
const SEEDS = Array.from({ length: 24 }, (_, index) => index + 1);

const kennel: Kennel = { startMock, runContract, loadDocument };

/** What must be empty for a document: anything here is a disagreement, named so a failure reads as a report. */
function verdict(outcome: SeedOutcome) {
  return {
    invalidDocument: outcome.invalidDocument,
    crashes: outcome.crashes,
    errors: outcome.disagreements.map((found) => `${found.check} ${found.operation}: ${found.title}`),
  };
}

let directory: string;
const outcomes: SeedOutcome[] = [];
beforeAll(async () => {
  directory = await mkdtemp(path.join(os.tmpdir(), 'kennel-consistency-'));
});
afterAll(() => rm(directory, { recursive: true, force: true }));

describe('generated documents: kennel check against kennel serve of the same document finds nothing', () => {
  it.each(SEEDS)('seed %i', async (seed) => {
    const outcome = await checkGenerated(kennel, generateDocument(seed, { features: FEATURES }), directory);
    outcomes.push(outcome);
    expect(verdict(outcome)).toEqual({ invalidDocument: undefined, crashes: [], errors: [] });
    expect(outcome.exitCode).toBe(0);
  });

  it('exercised every feature switched on, with real traffic', () => {
    const used = new Set(outcomes.flatMap((outcome) => outcome.generated.features));
    expect(FEATURES.filter((feature) => !used.has(feature))).toEqual([]);
    const requests = outcomes.map((outcome) => outcome.requests ?? 0);
    expect(Math.min(...requests)).toBeGreaterThan(0);
    expect(requests.reduce((sum, count) => sum + count, 0)).toBeGreaterThan(100 * SEEDS.length);
  });
});

describe('the harness', () => {
  it('reports a mock that serves another document than the one checked', async () => {
    const checked = generateDocument(5, { features: ['crud'] });
    const served = structuredClone(checked);
    // The document checked requires a property the served one does not know: every item lacks it.
    const schemas = (checked.document.components as { schemas: Record<string, Record<string, unknown>> }).schemas;
    const item = Object.values(schemas).find((schema) => (schema.required as string[] | undefined)?.includes('name'))!;
    item.required = [...(item.required as string[]), 'serialNumber'];
    item.properties = { ...(item.properties as object), serialNumber: { type: 'string' } };
    const servedFile = await writeDocument({ ...served, seed: 0 }, directory);
    const serving: Kennel = { ...kennel, startMock: (options) => startMock({ ...options, specPath: servedFile }) };
    const outcome = await checkGenerated(serving, checked, directory);
    expect(outcome.exitCode).toBe(1);
    expect(outcome.disagreements.map((found) => found.title)).toContainEqual(
      expect.stringMatching(/\/serialNumber is required/),
    );
  });
});
