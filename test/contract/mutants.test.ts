import { describe, expect, it } from 'vitest';
import type { RunSummary } from '../../src/contract/run/runner.js';
import { FAULT_FAMILIES, type PetstoreFault } from './reference-petstore-faults.js';
import { VARIANTS, type Fault } from './reference-petstore.js';
import { checkReference } from './helpers.js';

// The acceptance proxy: single-fault deployments written from the spec must fail the check, each
// caught by exactly the checks its table names; correct deployments that choose differently where
// the spec is silent must pass it. Runs wait on sockets and timers more than on the CPU, so a
// table's rows run side by side (vitest's maxConcurrency at once), each given room for a busy
// machine: a run is bounded by the checker's own timeouts.
const RUN_MS = 120_000;

/** The checks with an error finding in a run, each once, sorted. */
function catchingChecks(summary: RunSummary): string[] {
  const failing = summary.cases.filter((result) => result.failures.some((failure) => failure.severity === 'error'));
  return [...new Set(failing.map((result) => result.check))].sort();
}

describe.concurrent.each(Object.entries(FAULT_FAMILIES))('kennel check finds each %s fault', (_family, faults) => {
  it.each(faults as readonly PetstoreFault[])(
    '$name, by $checks: $description',
    async (fault) => {
      const summary = await checkReference({ fault: fault.name as Fault });
      const caught = catchingChecks(summary).filter((check) => !fault.sometimes?.includes(check));
      expect(caught, `the checks that catch ${fault.name}`).toEqual([...fault.checks].sort());
      expect(summary.exitCode).toBe(1);
    },
    RUN_MS,
  );
});

describe.concurrent('kennel check passes the correct variants of the reference Pet Store', () => {
  it.each(VARIANTS)(
    '$name: $description',
    async ({ variant }) => {
      const summary = await checkReference({ variant });
      const errors = summary.cases.flatMap((result) =>
        result.failures
          .filter((failure) => failure.severity === 'error')
          .map((failure) => `${result.operationId} ${result.check}: ${failure.title}`),
      );
      expect(errors).toEqual([]);
      expect(summary.exitCode).toBe(0);
    },
    RUN_MS,
  );
});
