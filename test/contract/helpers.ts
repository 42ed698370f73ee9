import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { PETSTORE_SPEC } from '../../src/assets.js';
import { runContract, type ContractOptions, type RunSummary } from '../../src/contract/runner.js';
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
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/api`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}
