import { createServer, type Server } from 'node:http';
import { fileURLToPath } from 'node:url';
import { PETSTORE_SPEC } from '../../src/assets.js';
import { SCENARIO_CHECKS } from '../../src/contract/checks/registry.js';
import { runContract, type ContractOptions, type RunSummary } from '../../src/contract/run/runner.js';
import { listenOnLoopback } from '../helpers/loopback.js';
import { startReferencePetstore, type Fault, type Variant } from './reference-petstore.js';

export const HEADERS_SPEC = fileURLToPath(new URL('../fixtures/headers.yaml', import.meta.url));

/** Runs kennel check against the reference Pet Store with one fault or variant. */
export async function checkReference(
  options: { fault?: Fault; variant?: Partial<Variant> },
  run: Partial<ContractOptions> = {},
): Promise<RunSummary> {
  const server = await startReferencePetstore(options);
  try {
    return await runContract({ baseUrl: server.url, apiKey: server.apiKey, specPath: PETSTORE_SPEC, seed: 11, ...run });
  } finally {
    await server.close();
  }
}

/** Cheap checks whose creates and reads give the checks of a narrow run something to judge. */
export const PRODUCERS = ['positive-data-acceptance'];

/**
 * A narrow run's checks: `checks` and the producers, and no other scenario check sending requests
 * (a response check named judges the producers' requests). For a fault row asserting that one
 * check catches a fault; a table of such rows keeps full runs of its correct deployments.
 */
export function onlyChecks(...checks: string[]): Pick<ContractOptions, 'checks' | 'excludeChecks'> {
  const run = [...new Set([...checks, ...PRODUCERS])];
  const others = SCENARIO_CHECKS.map((check) => check.name).filter((name) => !run.includes(name));
  return { checks: run, excludeChecks: others };
}

/** The check a finding names first (`pagination-followed listStops: …`). */
export function checkNamedBy(finding: string): string {
  return finding.slice(0, finding.indexOf(' '));
}

/** Each failure of a run as `check operationId: title`, only those of `severity` if given. */
export function findingTitles(summary: RunSummary, severity?: 'error' | 'warning'): string[] {
  return summary.cases.flatMap((result) =>
    result.failures
      .filter((failure) => severity === undefined || failure.severity === severity)
      .map((failure) => `${result.check} ${result.operationId}: ${failure.title}`),
  );
}

/** The statuses of one check's cases in a run. */
export function statusesOf(summary: RunSummary, check: string): string[] {
  return summary.cases.filter((result) => result.check === check).map((result) => result.status);
}

/** A server for fixtures/headers.yaml whose X-Total-Count header is `header` (undefined: absent). */
export async function startHeadersServer(header: string | undefined): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer((_request, response) => {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (header !== undefined) headers['x-total-count'] = header;
    response.writeHead(200, headers).end('["a","b"]');
  });
  const { url, close } = await listenOnLoopback(server);
  return { url: `${url}/api`, close };
}
