/**
 * kennel as a library: embed the mock in a test suite, run the contract checks from code.
 *
 * The types exported here name nothing from devDependencies (no Koa types), so that a consumer's
 * `tsc` compiles with kennel's dependencies alone (test/cli/public-types.e2e.test.ts).
 */
import { runtimeProblem } from './runtime-support.js';
import { startMock as startMockServer } from './serve/server.js';
import type { MockServerOptions, RunningMock } from './serve/running-mock.js';

export type { MockServerOptions, RunningMock };

// A runtime that lacks what kennel needs fails here, by name, not later inside a check.
const problem = runtimeProblem(process.versions.node);
if (problem) throw new Error(problem);

/** Starts the mock on a real HTTP listener (a free port on 127.0.0.1 by default); `await mock.close()` when done. */
export const startMock: (options?: MockServerOptions) => Promise<RunningMock> = startMockServer;

export { DEFAULT_CONFIG, DEV_API_KEY, type MockConfig } from './mock/config.js';
export type { ChaosRule, ChaosSettings, Fault, Latency } from './mock/chaos/chaos-types.js';
export type { AfterSunset } from './mock/time/after-sunset.js';
export { loadDocument, type LoadedDocument } from './openapi/load.js';
export type { ErrorBody } from './core/problem.js';
export {
  runContract,
  type ContractOptions,
  type RunSummary,
  type RunInfo,
  type CaseResult,
  type CaseStatus,
  type RunListener,
  type RunProgress,
} from './contract/run/runner.js';
export type { Check, CheckFailure, Finding, Exchange, Severity } from './contract/types.js';
export { ALL_CHECKS } from './contract/checks/registry.js';
