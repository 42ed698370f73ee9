import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import SwaggerParser from '@apidevtools/swagger-parser';
import { stringify } from 'yaml';
import type { startMock } from '../../src/serve/server.js';
import type { runContract } from '../../src/contract/run/runner.js';
import type { loadDocument } from '../../src/openapi/load.js';
import type { GeneratedDocument } from './document-generator.js';

/**
 * kennel's parts the harness drives. Passed in, so the tests use the sources (through vitest) and
 * the bench the compiled dist/, with one harness.
 */
export interface Kennel {
  startMock: typeof startMock;
  runContract: typeof runContract;
  loadDocument: typeof loadDocument;
}

/** An error finding of `kennel check` against `kennel serve` of the same document: they disagree. */
export interface Disagreement {
  check: string;
  operation: string;
  title: string;
  /** The title with numbers, quoted values and uuids masked: findings that are one rule's. */
  pattern: string;
}

/** What serving and checking one generated document came to. */
export interface SeedOutcome {
  generated: GeneratedDocument;
  file: string;
  /** Why the document itself is at fault (the generator's bug, not kennel's): invalid, or kennel warned. */
  invalidDocument?: string;
  /** Where kennel failed where it must not: start-up refused the document, the run or a check crashed. */
  crashes: string[];
  disagreements: Disagreement[];
  exitCode?: number;
  requests?: number;
  durationMs: number;
}

const API_KEY = 'generated-key';

/** Serves the document with `startMock`, checks it with `runContract` and collects every error finding. */
export async function checkGenerated(
  kennel: Kennel,
  generated: GeneratedDocument,
  directory: string,
  checkSeed = 1,
): Promise<SeedOutcome> {
  const started = performance.now();
  const file = await writeDocument(generated, directory);
  const outcome = (extra: Partial<SeedOutcome>): SeedOutcome => ({
    generated,
    file,
    crashes: [],
    disagreements: [],
    durationMs: Math.round(performance.now() - started),
    ...extra,
  });
  const invalid = await documentFault(kennel, generated, file);
  if (invalid) return outcome({ invalidDocument: invalid });
  let mock: Awaited<ReturnType<Kennel['startMock']>>;
  try {
    mock = await kennel.startMock({ specPath: file, port: 0, apiKeys: [API_KEY], world: false });
  } catch (error) {
    return outcome({ crashes: [`kennel serve refused it: ${describe(error)}`] });
  }
  try {
    const summary = await kennel.runContract({ baseUrl: mock.url, apiKey: API_KEY, specPath: file, seed: checkSeed });
    const crashed = summary.cases.filter((result) => result.status === 'errored');
    return outcome({
      crashes: crashed.map((result) => `${result.check} on ${result.operationId}: ${result.error}`),
      disagreements: summary.cases.flatMap((result) =>
        result.failures
          .filter((failure) => failure.severity === 'error')
          .map((failure) => ({
            check: result.check,
            operation: result.operationId,
            title: failure.title,
            pattern: patternOf(failure.title, result.operationId),
          })),
      ),
      exitCode: summary.exitCode,
      requests: summary.requests,
    });
  } catch (error) {
    return outcome({ crashes: [`kennel check crashed: ${describe(error)}`] });
  } finally {
    await mock.close();
  }
}

/** Where the generated document breaks its own promise: not valid OpenAPI, or kennel warns about it. */
async function documentFault(kennel: Kennel, generated: GeneratedDocument, file: string): Promise<string | undefined> {
  try {
    await SwaggerParser.validate(structuredClone(generated.document) as never);
  } catch (error) {
    return `swagger-parser: ${describe(error)}`;
  }
  try {
    const loaded = await kennel.loadDocument(file);
    if (loaded.warnings.length > 0)
      return `kennel warned: ${loaded.warnings.map((warning) => warning.message).join('; ')}`;
  } catch (error) {
    return `kennel refused it: ${describe(error)}`;
  }
  return undefined;
}

/** Writes the document as YAML (no anchors: every shared object written out) named after its seed. */
export async function writeDocument(generated: GeneratedDocument, directory: string): Promise<string> {
  const file = path.join(directory, `generated-${generated.seed}.yaml`);
  const header = `# kennel generated document: seed ${generated.seed}, OpenAPI ${generated.version}\n# features: ${generated.features.join(',')}\n`;
  await writeFile(file, header + stringify(generated.document, { aliasDuplicateObjects: false, lineWidth: 0 }));
  return file;
}

/**
 * A finding's title as a rule: its first clause, with the operation, numbers, uuids, quoted values
 * and the run's generated names masked, so one fault on many operations or values is one group.
 */
export function patternOf(title: string, operation?: string): string {
  const clause = title.split('; ')[0]!;
  return (operation ? clause.replaceAll(operation, 'OPERATION') : clause)
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi, 'UUID')
    .replace(/kennel-[\w-]+/g, 'kennel-…')
    .replace(/"[^"]*"/g, '"…"')
    .replace(/\d+(\.\d+)?/g, 'N')
    .slice(0, 160);
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message.split('\n')[0]! : String(error);
}
