import type { Command } from 'commander';
import { pino, type Logger } from 'pino';
import type { MockConfig } from '../mock/config.js';
import type { RunningMock } from '../serve/server.js';
import { serveBanner, worldBannerLines } from './banner.js';
import { watchDocument } from './spec-watch.js';
import { documentOf } from './document-argument.js';
import { isUrl } from '../openapi/load.js';
import { ToolError } from '../core/tool-error.js';
import type { CliIo } from './io.js';
import { logDestination, resolveLogFormat, type LogFormat } from './log-format.js';
import { chaosBannerLines, chaosOptions, resolveChaosConfig, type ChaosFlags } from './chaos-options.js';
import { resolveConfig } from './serve-config.js';
import { serveOptions, type ServeFlags } from './serve-options.js';

/** Declares `kennel serve` and its flags on `program`. */
export function serveCommand(program: Command, io: CliIo, finish: (code: number) => void): void {
  const command = serveOptions(program.command('serve'));
  chaosOptions(command).action(async (document: string | undefined, flags: ServeFlags & ChaosFlags) => {
    flags.spec = documentOf(document, flags.spec);
    if (flags.watch && flags.spec !== undefined && isUrl(flags.spec))
      throw new ToolError(`--watch follows files; ${flags.spec} is a URL: save it to a file to watch it`);
    const format = resolveLogFormat(flags.logFormat, io.env.KENNEL_LOG_FORMAT, io.logIsTerminal ?? false);
    const base = resolveConfig(flags, io.env);
    const config = { ...base, ...(await resolveChaosConfig(flags, io.env, base.proxy)) };
    finish(await serve(config, { logFormat: format, watch: flags.watch ?? false }, io));
  });
}

/** How this run of serve behaves beyond the mock's config. */
interface ServeRun {
  logFormat: LogFormat;
  watch: boolean;
}

/** Runs the mock until `io.signal` aborts; returns the exit code. */
async function serve(config: MockConfig, { logFormat, watch }: ServeRun, io: CliIo): Promise<number> {
  const logger = pino(
    { level: config.logLevel, base: { service: 'kennel' }, timestamp: pino.stdTimeFunctions.isoTime },
    await logDestination(logFormat, io.logStream, io.logIsTerminal ?? false),
  );
  const { startMock } = await import('../serve/server.js');
  const running = await startMock({ ...config, logger });
  try {
    await announceAndWait(running, config, watch, io, logger);
  } finally {
    await running.close();
    logger.flush?.();
  }
  if (running.proxy) io.stderr.write(running.proxy.summaryText());
  return 0;
}

/**
 * Prints the warnings and the banner, then waits for `io.signal`. Whatever goes wrong here, the
 * caller closes the listener: a failure must end the process, not leave a server behind.
 */
async function announceAndWait(
  running: RunningMock,
  config: MockConfig,
  watch: boolean,
  io: CliIo,
  logger: Logger,
): Promise<void> {
  for (const warning of running.spec.warnings)
    io.stderr.write(`kennel: warning: ${warning.location}: ${warning.message}\n`);
  io.stderr.write(serveBanner(config, running));
  if (running.spec.operations.length === 0)
    io.stderr.write('  note     the document has no operations (no paths): only the admin API answers\n');
  for (const line of worldBannerLines(running)) io.stderr.write(`${line}\n`);
  for (const line of chaosBannerLines(config, running.origin)) io.stderr.write(`${line}\n`);
  const unwatch = watch ? await watchDocument(running, logger, io) : undefined;
  if (unwatch) io.stderr.write(`  watch    ${config.specPath} and the files it references: edits reload\n`);
  io.onReady?.({ url: running.url, origin: running.origin });
  await new Promise<void>((resolve) => {
    if (io.signal.aborted) resolve();
    else io.signal.addEventListener('abort', () => resolve(), { once: true });
  });
  unwatch?.();
}
