// How the product team scores `kennel check` on a foreign API: the correct deployments should give
// no error finding, and a fault is caught when its run has an error finding (check, operation,
// normalised title) that the reference deployment's run does not have. Shared by
// test/contract/foreign-apis.test.ts (src) and bench/foreign.js (dist): the runner is passed in.
import type { ContractOptions, RunSummary } from '../../../src/contract/run/runner.js';
import type { FaultSpec, ForeignApi } from './fault-catalogue.js';

export type RunContract = (options: ContractOptions) => Promise<RunSummary>;

/** The seed of every scored run, so that a score repeats. */
export const SCORE_SEED = 7;

/** A title with its run-specific parts masked: uuids, date-times, dates, then numbers. */
export function normaliseTitle(title: string): string {
  return title
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi, '<uuid>')
    .replace(/\d{4}-\d{2}-\d{2}[Tt ][\d:.]+(?:[Zz]|[+-]\d{2}:\d{2})?/g, '<date-time>')
    .replace(/\d{4}-\d{2}-\d{2}/g, '<date>')
    .replace(/\d+/g, 'N');
}

/** Each error finding of a run as `check operationId: normalised title`. */
export function errorFindings(summary: RunSummary, checks?: readonly string[]): string[] {
  const keys = summary.cases.flatMap((result) =>
    result.failures
      .filter((failure) => failure.severity === 'error')
      .filter(() => checks === undefined || checks.includes(result.check))
      .map((failure) => `${result.check} ${result.operationId}: ${normaliseTitle(failure.title)}`),
  );
  const crashed = summary.cases
    .filter((result) => result.status === 'errored')
    .map((result) => `${result.check} ${result.operationId}: crashed`);
  return [...new Set([...keys, ...crashed])].sort();
}

/** Runs kennel check against one deployment of `api` (all checks, or `checks`), then closes it. */
export async function checkDeployment<Fault extends string>(
  api: ForeignApi<Fault>,
  run: RunContract,
  deployment: { fault?: Fault; variant?: string },
  checks?: readonly string[],
): Promise<RunSummary> {
  const server = await api.start(deployment);
  try {
    return await run({
      baseUrl: server.url,
      apiKey: api.apiKey,
      specPath: api.document,
      seed: SCORE_SEED,
      ...(checks === undefined ? {} : { checks: [...checks] }),
    });
  } finally {
    await server.close();
  }
}

export interface FaultScore<Fault extends string = string> {
  fault: FaultSpec<Fault>;
  caught: boolean;
  /** Error findings the reference run does not have. */
  newFindings: string[];
  durationMs: number;
}

export interface ApiScore<Fault extends string = string> {
  api: string;
  /** Each correct deployment's error findings (none, when kennel is right about it). */
  correct: { name: string; errors: string[]; durationMs: number; requests: number }[];
  faults: FaultScore<Fault>[];
}

/** Runs `tasks` with at most `limit` at once, keeping their order. */
export async function inBatches<T, R>(items: readonly T[], limit: number, task: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array<R>(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const index = next++;
      results[index] = await task(items[index]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

/** Scores every correct deployment and every fault of `api` with full runs, as the product team does. */
export async function scoreApi<Fault extends string>(
  api: ForeignApi<Fault>,
  run: RunContract,
  { concurrency = 3, onFault }: { concurrency?: number; onFault?: (score: FaultScore<Fault>) => void } = {},
): Promise<ApiScore<Fault>> {
  const correct = await inBatches(api.correct, concurrency, async (variant) => {
    const summary = await checkDeployment(api, run, { variant });
    return {
      name: variant,
      errors: errorFindings(summary),
      durationMs: summary.durationMs,
      requests: summary.requests,
    };
  });
  const baseline = new Set(correct[0]?.errors ?? []);
  const faults = await inBatches(api.faults, concurrency, async (fault) => {
    const summary = await checkDeployment(api, run, { fault: fault.name });
    const newFindings = errorFindings(summary).filter((finding) => !baseline.has(finding));
    const score = { fault, caught: newFindings.length > 0, newFindings, durationMs: summary.durationMs };
    onFault?.(score);
    return score;
  });
  return { api: api.name, correct, faults };
}
