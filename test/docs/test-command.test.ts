// `npm test` (scripts/test.js) runs lanes of steps side by side: a failing step fails the whole
// command, its output is printed whole after the live steps', and the steps after it in its lane
// are not run.
import { describe, expect, it } from 'vitest';
import { passed, runLanes, type Step } from '../../scripts/test.js';

function nodeStep(name: string, script: string, live = false): Step {
  return { name, command: process.execPath, args: ['-e', script], live };
}

async function run(lanes: Step[][]) {
  let printed = '';
  const outcomes = await runLanes(lanes, { write: (text: string) => (printed += text) });
  return { outcomes, printed, verdicts: outcomes.map((outcome) => [outcome.name, passed(outcome)]) };
}

describe('the test command', () => {
  it('runs every lane and reports each step passing', async () => {
    const { printed, verdicts } = await run([
      [nodeStep('build', '', true), nodeStep('suite', '', true)],
      [nodeStep('first', "process.stdout.write('first done')")],
      [nodeStep('second', "process.stderr.write('second done')")],
    ]);
    expect(verdicts).toEqual([
      ['build', true],
      ['suite', true],
      ['first', true],
      ['second', true],
    ]);
    expect(printed).toContain('── first ──\nfirst done\n');
    expect(printed).toContain('── second ──\nsecond done\n');
    expect(printed).toMatch(/✓ suite: passed/);
    expect(printed).toMatch(/✓ second: passed/);
  });

  it('fails when a side step fails, printing its whole output and its exit code', async () => {
    const lint = "console.log('src/a.ts\\n  1:1  error  no-console'); console.log('1 problem'); process.exit(1)";
    const { printed, verdicts } = await run([[nodeStep('suite', '', true)], [nodeStep('lint', lint)]]);
    expect(verdicts).toEqual([
      ['suite', true],
      ['lint', false],
    ]);
    expect(printed).toContain('── lint ──\nsrc/a.ts\n  1:1  error  no-console\n1 problem\n');
    expect(printed).toMatch(/✗ lint: failed \(exit 1\)/);
  });

  it('runs no step of a lane after one that failed', async () => {
    const { printed, verdicts } = await run([
      [nodeStep('build', 'process.exit(2)', true), nodeStep('suite', '', true)],
    ]);
    expect(verdicts).toEqual([
      ['build', false],
      ['suite', false],
    ]);
    expect(printed).toMatch(/✗ build: failed \(exit 2\)/);
    expect(printed).toMatch(/✗ suite: not run/);
  });

  it('reports a step that could not start as failed', async () => {
    const { outcomes, printed } = await run([[{ name: 'missing', command: '/nonexistent/tool', args: [] }]]);
    expect(outcomes[0]?.code).toBe(127);
    expect(printed).toMatch(/── missing ──\n.*ENOENT/);
    expect(printed).toMatch(/✗ missing: failed \(exit 127\)/);
  });
});
