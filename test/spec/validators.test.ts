import { describe, expect, it } from 'vitest';
import { describeIssues, MAX_DESCRIBED_ISSUES } from '../../src/spec/validators.js';

describe('describeIssues', () => {
  const issues = (count: number) =>
    Array.from({ length: count }, (_, i) => ({ pointer: `/k${i}`, message: 'is not allowed' }));

  it('names every issue up to the bound, the root as (root)', () => {
    expect(describeIssues([{ pointer: '', message: 'must be object' }, ...issues(2)])).toBe(
      '(root) must be object; /k0 is not allowed; /k1 is not allowed',
    );
    expect(describeIssues(issues(MAX_DESCRIBED_ISSUES))).not.toContain('more');
  });

  it('counts the rest beyond the bound, so 5,000 unknown fields cannot make a 60 KB message', () => {
    const text = describeIssues(issues(5000));
    expect(text).toContain(`/k${MAX_DESCRIBED_ISSUES - 1} is not allowed; and ${5000 - MAX_DESCRIBED_ISSUES} more`);
    expect(text).not.toContain(`/k${MAX_DESCRIBED_ISSUES} `);
  });
});
