import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'src/**/*.test.ts'],
    testTimeout: 20_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // Most files wait on sockets and child processes, so two workers finish sooner even on 2 cores.
    maxWorkers: 2,
    // A worker runs file after file with its modules loaded once: re-importing the sources for each
    // of ~190 files cost more CPU than many files' tests. Tests share no global state (no module
    // mocks, no stubbed globals or environment; fake timers are restored where they are used).
    isolate: false,
    // Files whose tests wait on one full `kennel check` run each mostly wait on sockets and timers:
    // `describe.concurrent` runs a table's rows side by side, this many at once. More only
    // lengthens each row on a starved machine (the runs' CPU is shared) and risks their timeouts.
    maxConcurrency: 3,
  },
});
