import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Command } from 'commander';
import { describeSpan } from '../core/duration.js';
import { ToolError } from '../core/tool-error.js';
import type { Scenario } from '../domains/scenario/scenario.js';
import type { CliIo } from './io.js';
import { EXIT } from './exit-codes.js';

/** Every scenario that loads, and the files that do not (each a ToolError naming file:line). */
async function loadEach(
  inputs: readonly string[],
): Promise<{ scenarios: Scenario[]; broken: { file: string; error: ToolError }[] }> {
  const { loadScenarioFile, scenarioFiles } = await import('../domains/scenario/scenario-file.js');
  const files = await scenarioFiles(inputs);
  const loaded = await Promise.all(
    files.map(async (file) => {
      try {
        return { file, scenario: await loadScenarioFile(file) };
      } catch (error) {
        if (error instanceof ToolError) return { file, error };
        throw error;
      }
    }),
  );
  return {
    scenarios: loaded.flatMap((entry) => (entry.scenario ? [entry.scenario] : [])),
    broken: loaded.flatMap((entry) => (entry.error ? [{ file: entry.file, error: entry.error }] : [])),
  };
}

/** Reports broken files on stderr; a single broken file and nothing else is the command's error. */
function reportBroken(loaded: Awaited<ReturnType<typeof loadEach>>, io: CliIo): void {
  if (loaded.scenarios.length === 0 && loaded.broken.length === 1) throw loaded.broken[0]!.error;
  for (const { error } of loaded.broken) io.stderr.write(`kennel: ${error.message}\n`);
}

async function run(inputs: string[], flags: { junit?: string; worldFile?: string }, io: CliIo): Promise<number> {
  const started = performance.now();
  const [{ runScenario }, { loadWorld }, { scenarioJunit, timeline }] = await Promise.all([
    import('../domains/scenario/scenario.js'),
    import('../domains/scenario/scenario-file.js'),
    import('../domains/scenario/scenario-report.js'),
  ]);
  const [world, loaded] = await Promise.all([loadWorld(flags.worldFile), loadEach(inputs)]);
  // A single broken file is the run's error; among several, it is reported and the others run.
  reportBroken(loaded, io);
  const { scenarios, broken } = loaded;
  const results = scenarios.map((scenario) => runScenario(scenario, world));
  for (const result of results) io.stdout.write(`${timeline(result)}\n\n`);
  const failed = results.filter((result) => !result.passed);
  const virtual = results.reduce((sum, result) => sum + result.spanMs, 0);
  const wall = performance.now() - started;
  io.stdout.write(
    `${results.length - failed.length} of ${results.length} scenarios passed${failed.length > 0 ? `; failed: ${failed.map((result) => result.name).join(', ')}` : ''}${broken.length > 0 ? `; ${broken.length} file${broken.length > 1 ? 's' : ''} could not be run: ${broken.map(({ file }) => path.basename(file)).join(', ')}` : ''}\n`,
  );
  io.stdout.write(`${describeSpan(virtual)} of virtual time in ${Math.round(wall)} ms\n`);
  if (flags.junit) {
    try {
      await mkdir(path.dirname(path.resolve(flags.junit)), { recursive: true });
      await writeFile(flags.junit, scenarioJunit(results, wall));
    } catch (error) {
      throw new ToolError(
        `cannot write the report: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
        flags.junit,
      );
    }
  }
  if (broken.length > 0) return EXIT.toolError;
  return failed.length > 0 ? EXIT.findings : EXIT.ok;
}

async function list(inputs: string[], io: CliIo): Promise<number> {
  const loaded = await loadEach(inputs);
  reportBroken(loaded, io);
  for (const scenario of loaded.scenarios) {
    const rules = scenario.rules.length > 0 ? ` [rules ${scenario.rules.join(', ')}]` : '';
    io.stdout.write(`${scenario.name}${rules}\n  ${scenario.description.trim().replaceAll('\n', '\n  ')}\n`);
  }
  return loaded.broken.length > 0 ? EXIT.toolError : EXIT.ok;
}

/** Declares `kennel scenario run|list`. */
export function scenarioCommand(program: Command, io: CliIo, finish: (code: number) => void): void {
  const scenario = program.command('scenario').description('scripted custom-domain cases on a virtual clock');
  scenario
    .command('run')
    .description('run scenarios (files or directories; default: the bundled scenarios/) and print each as a timeline')
    .argument('[paths...]', 'scenario files or directories')
    .option('--junit <file>', 'write a JUnit XML report')
    .option('--world-file <file>', 'world file (default: fixtures/world.json)')
    .action(async (paths: string[], flags: { junit?: string; worldFile?: string }) =>
      finish(await run(paths, flags, io)),
    );
  scenario
    .command('list')
    .description('describe the scenarios')
    .argument('[paths...]', 'scenario files or directories')
    .action(async (paths: string[]) => finish(await list(paths, io)));
}
