import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain ES module of bin/, without types
import { nodeVersionProblem, REQUIRED_MAJOR } from '../../bin/node-version.js';

describe('the Node version kennel runs on', () => {
  it('accepts Node 24 and later, and the Node running this test', () => {
    expect(REQUIRED_MAJOR).toBe(24);
    expect(nodeVersionProblem('24.0.0')).toBeUndefined();
    expect(nodeVersionProblem('25.1.3')).toBeUndefined();
    expect(nodeVersionProblem(process.versions.node)).toBeUndefined();
  });

  it('refuses an older Node in one line that says what to do', () => {
    expect(nodeVersionProblem('20.20.2')).toBe(
      'kennel: needs Node 24 or later, found 20.20.2. Run it through npm (npx kennel …, npm start), ' +
        'which puts the Node 24 that npm ci installs first on PATH.',
    );
    expect(nodeVersionProblem('garbage')).toMatch(/needs Node 24/);
  });
});
