/** kennel as a library: embed the mock in a test suite. */
export { startMock, type MockServerOptions, type RunningMock } from './mock/server.js';
export { DEFAULT_CONFIG, DEV_API_KEY, type MockConfig } from './mock/config.js';
export { loadSpec, type LoadedSpec } from './spec/load.js';
export type { ErrorBody } from './core/problem.js';
export {
  runContract,
  type ContractOptions,
  type RunSummary,
  type CaseResult,
  type RunListener,
} from './contract/runner.js';
export { ALL_CHECKS } from './contract/registry.js';
