import { describe, expect, it } from 'vitest';
import type { ContractOptions, RunSummary } from '../../src/contract/run/runner.js';
import { FAULT_FAMILIES, type PetstoreFault } from './reference-petstore-faults.js';
import { VARIANTS, type Fault } from './reference-petstore.js';
import { checkReference } from './helpers.js';

// The acceptance proxy: single-fault deployments written from the spec must fail the check, each
// caught by exactly the checks its table names (among every check but the slow ones, which run
// where named: see faultRunOptions); correct deployments that choose differently where the spec is
// silent must pass it. Runs wait on sockets and timers more than on the CPU, so a table's rows run
// side by side (vitest's maxConcurrency at once), each given room for a busy machine: a run is
// bounded by the checker's own timeouts.
const RUN_MS = 120_000;

/**
 * Scenario checks that create and re-read by the hundred: id-permanence alone (100 creates, up to
 * 500 reads) sent half of a full run's requests. A fault's run leaves them out unless the fault
 * names one (or its timing may show it), with the checks a named one feeds on; every other check
 * still runs, so a row still asserts exactly which of them catch the fault. The correct variants
 * below run every check, so a false alarm of any check, these included, still fails there.
 */
const SLOW_CHECKS = [
  'id-permanence',
  'data-fidelity',
  'list-freshness',
  'collection-consistency',
  'resource-round-trip',
];

/** Checks whose creates a named check needs (collection-consistency filters more pets than a page holds). */
const FEEDS_ON: Record<string, readonly string[]> = { 'collection-consistency': ['list-freshness'] };

function faultRunOptions(fault: PetstoreFault): Partial<ContractOptions> {
  const named: readonly string[] = [...fault.checks, ...(fault.sometimes ?? [])];
  const needed = new Set([...named, ...named.flatMap((check) => FEEDS_ON[check] ?? [])]);
  return { excludeChecks: SLOW_CHECKS.filter((check) => !needed.has(check)) };
}

/** The checks with an error finding in a run, each once, sorted. */
function catchingChecks(summary: RunSummary): string[] {
  const failing = summary.cases.filter((result) => result.failures.some((failure) => failure.severity === 'error'));
  return [...new Set(failing.map((result) => result.check))].sort();
}

describe.concurrent.each(Object.entries(FAULT_FAMILIES))('kennel check finds each %s fault', (_family, faults) => {
  it.each(faults as readonly PetstoreFault[])(
    '$name, by $checks: $description',
    async (fault) => {
      const summary = await checkReference({ fault: fault.name as Fault }, faultRunOptions(fault));
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
