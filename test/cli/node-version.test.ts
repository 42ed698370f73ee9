import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { REQUIRED_NODE, runtimeProblem } from '../../src/runtime-support.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** This runtime's globals with JSON lacking rawJSON, as on Node 20. */
function withoutRawJson(): typeof globalThis {
  const json = { parse: JSON.parse, stringify: JSON.stringify } as unknown as JSON;
  return { ...globalThis, JSON: json };
}

describe('the runtime kennel runs on', () => {
  it('accepts Node 22.19 and later, and the Node running this test', () => {
    expect(REQUIRED_NODE).toBe('22.19');
    expect(runtimeProblem('22.19.0')).toBeUndefined();
    expect(runtimeProblem('23.0.0')).toBeUndefined();
    expect(runtimeProblem('24.0.0')).toBeUndefined();
    expect(runtimeProblem('25.1.3')).toBeUndefined();
    expect(runtimeProblem(process.versions.node)).toBeUndefined();
  });

  it('names the built-in an older Node lacks, and what to do, in one line', () => {
    const problem = runtimeProblem('20.20.2', withoutRawJson());
    expect(problem).toBe(
      'kennel: needs Node 22.19 or later: this Node (20.20.2) lacks JSON.rawJSON, which kennel uses to write integers ' +
        'beyond 2^53 digit for digit. Install Node 22.19 or later (https://nodejs.org); in a kennel checkout, ' +
        '`npx kennel …` runs the Node 24 that npm ci installs.',
    );
    expect(problem).not.toContain('\n');
  });

  it('refuses a version below the floor even when the built-ins are there', () => {
    expect(runtimeProblem('21.7.0')).toMatch(/^kennel: needs Node 22.19 or later, found 21\.7\.0\. Install Node 22/);
    expect(runtimeProblem('garbage')).toMatch(/needs Node 22/);
    expect(runtimeProblem('22.18.1')).toMatch(/found 22\.18\.1/);
  });

  it('the library refuses to load on such a runtime with the same line', () => {
    const script =
      'delete JSON.rawJSON; import("./dist/index.js").then(() => console.log("loaded"), (e) => console.log(e.message))';
    const result = spawnSync(process.execPath, ['--input-type=module', '-e', script], { cwd: ROOT, encoding: 'utf8' });
    expect(result.stdout.trim()).toMatch(/^kennel: needs Node 22.19 or later: this Node \(.*\) lacks JSON\.rawJSON/);
  });

  it('the command refuses to run on such a runtime: exit 2, the line on stderr', () => {
    const result = spawnSync(
      process.execPath,
      ['--import', 'data:text/javascript,delete JSON.rawJSON', 'bin/kennel.js', '--version'],
      {
        cwd: ROOT,
        encoding: 'utf8',
      },
    );
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/^kennel: needs Node 22.19 or later: this Node \(.*\) lacks JSON\.rawJSON/);
  });
});
