/**
 * kennel as a library: embed the mock in a test suite, run the contract checks from code.
 *
 * The types exported here name nothing from devDependencies (no Koa types), so that a consumer's
 * `tsc` compiles with kennel's dependencies alone (test/cli/public-types.e2e.test.ts).
 */
import type { Logger } from 'pino';
import { startMock as startMockServer } from './mock/server.js';
import type { MockConfig } from './mock/config.js';
import type { LoadedSpec } from './spec/load.js';

/** Options of `startMock`: any option of `kennel serve` (see the README), plus these. */
export interface MockServerOptions extends Partial<MockConfig> {
  /** Where request log lines go; default: silent for embedded use. */
  logger?: Logger;
  /** How long clients have to send request headers / whole requests (default 10 s / 30 s). */
  httpTimeouts?: { headersMs: number; requestMs: number };
}

/** A running mock (what `startMock` resolves to). */
export interface RunningMock {
  /** Base URL of the API, e.g. `http://127.0.0.1:4010/v1`. */
  url: string;
  /** Scheme, host and port, e.g. `http://127.0.0.1:4010` (the admin API is at `${origin}/__kennel`). */
  origin: string;
  /** The API keys the mock accepts (the development key when none was configured). */
  apiKeys: string[];
  config: MockConfig;
  spec: LoadedSpec;
  /** Forgets created pets and re-seeds: every tenant, or the one of `apiKey`; with `seed`, every tenant from that seed. */
  reset(options?: { seed?: number; apiKey?: string }): void;
  close(): Promise<void>;
  /** Where the live world's DNS server and HTTPS site listen, when started. */
  dns: { host: string; port: number } | undefined;
  site: { host: string; port: number } | undefined;
}

/** Starts the mock on a real HTTP listener (a free port on 127.0.0.1 by default); `await mock.close()` when done. */
export const startMock: (options?: MockServerOptions) => Promise<RunningMock> = startMockServer;

export { DEFAULT_CONFIG, DEV_API_KEY, type MockConfig } from './mock/config.js';
export { loadSpec, type LoadedSpec } from './spec/load.js';
export type { ErrorBody } from './core/problem.js';
export {
  runContract,
  type ContractOptions,
  type RunSummary,
  type RunInfo,
  type CaseResult,
  type CaseStatus,
  type RunListener,
} from './contract/runner.js';
export type { Check, CheckFailure, Finding, Exchange, Severity } from './contract/types.js';
export { ALL_CHECKS } from './contract/registry.js';
