import { readFileSync } from 'node:fs';
import { Command, CommanderError } from 'commander';
import { pino } from 'pino';
import { packageFile } from '../assets.js';
import { hideUrlCredentials } from '../core/redact.js';
import { ToolError } from '../core/tool-error.js';
import type { CliIo } from './io.js';
import { checkCommand } from './check.js';
import { EXIT } from './exit-codes.js';
import { startedByNpm, watchNpm } from './parent-watch.js';
import { scenarioCommand } from './scenario.js';
import { serveCommand } from './serve.js';

export { EXIT };

function version(): string {
  try {
    return (JSON.parse(readFileSync(packageFile('package.json'), 'utf8')) as { version: string }).version;
  } catch {
    return 'unknown';
  }
}

/** The `kennel` command and its subcommands, as commander declares them (also read by docs:reference). */
export function program(io: CliIo, finish: (code: number) => void): Command {
  const root = new Command('kennel')
    .description('Mock, contract-test and break the Pet Store API')
    .version(version(), '-V, --version')
    .showHelpAfterError('(run with --help for usage)')
    .exitOverride()
    .configureOutput({
      writeOut: (text) => io.stdout.write(text),
      writeErr: (text) => io.stderr.write(hideUrlCredentials(text)),
    });
  serveCommand(root, io, finish);
  checkCommand(root, io, finish);
  scenarioCommand(root, io, finish);
  const output = {
    writeOut: (text: string) => io.stdout.write(text),
    // commander quotes arguments it refuses: a URL among them keeps its password to itself.
    writeErr: (text: string) => io.stderr.write(hideUrlCredentials(text)),
  };
  const configure = (command: Command): void => {
    command.exitOverride().configureOutput(output);
    command.commands.forEach(configure);
  };
  root.commands.forEach(configure);
  return root;
}

/** Runs `kennel <argv>` (argv without node and script) and resolves with the exit code. */
export async function run(argv: readonly string[], io: CliIo): Promise<number> {
  let code: number = EXIT.ok;
  try {
    await program(io, (result) => (code = result)).parseAsync([...argv], { from: 'user' });
    return code;
  } catch (error) {
    return failure(error, io);
  }
}

function failure(error: unknown, io: CliIo): number {
  if (error instanceof CommanderError) {
    // commander has already printed its message; help and version are successful exits.
    return error.exitCode === 0 ? EXIT.ok : EXIT.toolError;
  }
  if (error instanceof ToolError) {
    io.stderr.write(`kennel: ${hideUrlCredentials(error.message)}\n`);
    return EXIT.toolError;
  }
  io.stderr.write(`kennel: unexpected failure: ${hideUrlCredentials((error as Error)?.message ?? String(error))}\n`);
  if (io.env.KENNEL_DEBUG) io.stderr.write(`${(error as Error)?.stack ?? ''}\n`);
  return EXIT.toolError;
}

/**
 * A stream write that goes quiet once the reader has gone (`kennel check … | head`): EPIPE and
 * writes after it are dropped instead of ending in a stack trace; the command carries on, so its
 * report files and exit code stay right.
 */
function quietOnClose(stream: NodeJS.WriteStream): { write(text: string): unknown } {
  let closed = false;
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE' || error.code === 'ERR_STREAM_DESTROYED') closed = true;
    else throw error;
  });
  return { write: (text: string) => (closed || stream.destroyed ? false : stream.write(text)) };
}

/**
 * The real process: argv, env, stdio and signals. The first SIGINT or SIGTERM aborts `io.signal`
 * with the signal's name (serve closes, check stops at once and still writes its reports); a
 * second one ends the process at once, as it would without kennel's handler.
 */
export async function runFromProcess(): Promise<void> {
  const controller = new AbortController();
  const onSignal = (signal: NodeJS.Signals): void => {
    if (controller.signal.aborted) {
      process.exit(128 + (signal === 'SIGINT' ? 2 : 15));
    }
    controller.abort(signal);
  };
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, onSignal);
  // Under npm, the pid a user kills is npm's: when npm's shell goes, kennel stops as on SIGTERM.
  const stopWatching = startedByNpm(process.env) ? watchNpm(() => onSignal('SIGTERM')) : undefined;
  const logStream = pino.destination({ dest: 1, sync: false });
  logStream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
  });
  const code = await run(process.argv.slice(2), {
    env: process.env,
    stdout: quietOnClose(process.stdout),
    stderr: quietOnClose(process.stderr),
    logStream,
    logIsTerminal: process.stdout.isTTY === true,
    stderrIsTerminal: process.stderr.isTTY === true,
    signal: controller.signal,
  });
  try {
    logStream.flushSync?.();
  } catch {
    // The reader of stdout has gone: nothing left to flush to.
  }
  process.exitCode = code;
  stopWatching?.();
  // Done: a signal now means "stop at once", even if something still holds the event loop open.
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.off(signal, onSignal);
}
