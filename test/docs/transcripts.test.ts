// The README and the guides show what their commands print: each console block marked `<!-- transcript -->` is
// run again, command by command, against a fresh kennel serve on a free port, and what comes back
// must match what the README shows. A line `…` (indented or not) stands for any number of lines; timings (`76 ms`)
// (`76 ms`, `0.95 s`) are compared as numbers of any value; `$ echo $?` shows the last exit code.
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMock, type RunningMock } from '../../src/index.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const SHOWN_ORIGIN = 'http://127.0.0.1:4010';

interface Step {
  command: string;
  output: string[];
}

/** The console blocks the README marks with `<!-- transcript -->`, as commands and their output. */
function transcripts(markdown: string): Step[][] {
  return [...markdown.matchAll(/^<!-- transcript -->\n```console\n([\s\S]*?)^```/gm)].map(([, block]) => {
    const steps: Step[] = [];
    for (const line of block!.replace(/\n$/, '').split('\n'))
      if (line.startsWith('$ ')) steps.push({ command: line.slice(2), output: [] });
      else steps.at(-1)!.output.push(line);
    return steps;
  });
}

/** Whether `actual` matches `shown`, where a shown `…` line stands for any number of lines. */
export function matches(shown: readonly string[], actual: readonly string[]): boolean {
  if (shown.length === 0) return actual.length === 0;
  const [first, ...rest] = shown;
  if (first!.trim() === '…') return actual.some((_, skip) => matches(rest, actual.slice(skip))) || matches(rest, []);
  return actual.length > 0 && normalise(first!) === normalise(actual[0]!) && matches(rest, actual.slice(1));
}

const normalise = (line: string): string =>
  line
    .replace(/\d+ ms\b/g, 'N ms')
    .replace(/\d+(\.\d+)? s\b/g, 'N s')
    .trimEnd();

/** Runs a shell script; resolves with what it printed (stdout, then stderr) and its exit code. */
function run(script: string): Promise<{ lines: string[]; code: number }> {
  const kennel = `${process.execPath} ${path.join(ROOT, 'bin', 'kennel.js')}`;
  return new Promise((resolve) => {
    execFile('bash', ['-c', script.replace(/^npx kennel /m, `${kennel} `)], { cwd: ROOT }, (error, stdout, stderr) =>
      resolve({
        lines: `${stdout}${stderr}`.replace(/\r/g, '').replace(/\n$/, '').split('\n'),
        code: typeof error?.code === 'number' ? error.code : 0,
      }),
    );
  });
}

/** Pages whose marked transcripts run against the Pet Store mock with its defaults. */
const PAGES = ['README.md', 'docs/serve.md'];

describe.each(PAGES)('%s transcripts', (page) => {
  const markdown = readFileSync(path.join(ROOT, page), 'utf8');
  let mock: RunningMock;
  // Shell variables set by one line (`export K=…`) hold for the lines after it, as in one terminal.
  let prelude = '';
  // `$ echo $?` shows the exit code of the command before it.
  let lastCode = 0;
  beforeAll(async () => {
    mock = await startMock({});
  });
  afterAll(() => mock.close());

  it('the page marks transcripts to check', () => {
    expect(transcripts(markdown).length).toBeGreaterThanOrEqual(4);
  });

  it.each(transcripts(markdown).map((steps, index) => [index + 1, steps] as const))(
    'transcript %i prints what the page shows',
    async (_index, steps) => {
      for (const { command, output } of steps) {
        const local = command.replaceAll(SHOWN_ORIGIN, mock.origin);
        if (/^(export )?\w+=/.test(local)) {
          prelude += `${local}\n`;
          continue;
        }
        const printed = local === 'echo $?' ? { lines: [String(lastCode)], code: 0 } : await run(`${prelude}${local}`);
        lastCode = printed.code;
        const shown = output.map((line) => line.replaceAll(SHOWN_ORIGIN, mock.origin));
        expect(
          matches(shown, printed.lines),
          `$ ${command}\n--- shown\n${shown.join('\n')}\n--- printed\n${printed.lines.join('\n')}`,
        ).toBe(true);
      }
    },
  );
});

describe('transcript matching', () => {
  it('a `…` line stands for any lines, and a changed line fails', () => {
    expect(matches(['a', '…', 'd'], ['a', 'b', 'c', 'd'])).toBe(true);
    expect(matches(['a', '…'], ['a'])).toBe(true);
    expect(matches(['a', '  …', 'c'], ['a', 'b', 'c'])).toBe(true);
    expect(matches(['a', 'took 76 ms'], ['a', 'took 3 ms'])).toBe(true);
    expect(matches(['513 requests in 0.95 s'], ['513 requests in 12.5 s'])).toBe(true);
    expect(matches(['a', 'b'], ['a', 'c'])).toBe(false);
    expect(matches(['a'], ['a', 'b'])).toBe(false);
  });
});
