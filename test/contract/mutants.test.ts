import { describe, expect, it } from 'vitest';
import { FAULTS, VARIANTS } from './reference-petstore.js';
import { checkReference } from './helpers.js';

// The acceptance proxy: single-fault deployments written from the spec must fail the check, and
// correct deployments that choose differently where the spec is silent must pass it.
describe('kennel check against the reference Pet Store', () => {
  it.each(FAULTS)('finds the fault $name: $description', async ({ name }) => {
    const summary = await checkReference({ fault: name });
    const errors = summary.cases.flatMap((result) => result.failures).filter((failure) => failure.severity === 'error');
    expect(errors.length, `no error for fault ${name}`).toBeGreaterThan(0);
    expect(summary.exitCode).toBe(1);
  });

  it.each(VARIANTS)('passes the correct variant $name: $description', async ({ variant }) => {
    const summary = await checkReference({ variant });
    const errors = summary.cases.flatMap((result) =>
      result.failures
        .filter((failure) => failure.severity === 'error')
        .map((failure) => `${result.operationId} ${result.check}: ${failure.title}`),
    );
    expect(errors).toEqual([]);
    expect(summary.exitCode).toBe(0);
  });
});
