// What the agreement tests share: a fixture of test/fixtures/agreement served by kennel serve and
// checked by kennel check, and the error findings of a run.
import { fileURLToPath } from 'node:url';
import { runContract, type RunSummary } from '../../src/contract/run/runner.js';
import { startMock } from '../../src/serve/server.js';

export const KEY = 'agreement-key';

export function fixture(name: string): string {
  return fileURLToPath(new URL(`../fixtures/agreement/${name}`, import.meta.url));
}

export async function serveAndCheck(name: string, loadWarnings: string[] = [], stateless = false): Promise<RunSummary> {
  const specPath = fixture(name);
  const mock = await startMock({ specPath, port: 0, apiKeys: [KEY], world: false, stateless });
  try {
    return await runContract({
      baseUrl: mock.url,
      apiKey: KEY,
      specPath,
      seed: 1,
      onLoadWarning: (warning) => loadWarnings.push(warning.message),
    });
  } finally {
    await mock.close();
  }
}

export function errors(summary: RunSummary): string[] {
  return summary.cases.flatMap((result) =>
    result.failures
      .filter((finding) => finding.severity === 'error')
      .map((finding) => `${result.check}: ${finding.title}`),
  );
}
