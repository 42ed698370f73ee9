import { createServer, type Server } from 'node:http';
import { fileURLToPath } from 'node:url';
import { PETSTORE_SPEC } from '../../src/assets.js';
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
