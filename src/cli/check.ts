import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { InvalidArgumentError, type Command } from 'commander';
import { PETSTORE_SPEC } from '../assets.js';
import { hideUrlCredentials, isCredentialHeader, REDACTED, Redactor, type Secret } from '../core/redact.js';
import { ToolError } from '../core/tool-error.js';
import { CONTRACT_DEFAULTS } from '../contract/run/defaults.js';
import type { ContractOptions, RunListener, RunSummary } from '../contract/run/runner.js';
import type { CliIo } from './io.js';
import { byteSizeIn, collect, integerIn } from './options.js';
import { DOCUMENT_HELP, documentOf } from './document-argument.js';
import { EXIT } from './exit-codes.js';

interface CheckFlags {
  baseUrl?: string;
  apiKey?: string;
  spec?: string;
  seed?: number;
  check?: string[];
  excludeCheck?: string[];
  maxExamples?: number;
  readOnly?: boolean;
  timeout?: number;
  concurrency?: number;
  rateLimit?: number;
  operation?: string[];
  tag?: string[];
  header?: string[];
  junit?: string;
  json?: string;
  strict?: boolean;
  requireExercised?: boolean;
  listChecks?: boolean;
  maxFailures?: number;
  exitfirst?: boolean;
  waitFor?: number;
  maxResponseSize?: number;
  quiet?: boolean;
  verbose?: boolean;
}

/** `--check a,b --check c` → [a, b, c]. */
function names(value: string, previous: string[] = []): string[] {
  return [
    ...previous,
    ...value
      .split(',')
      .map((name) => name.trim())
      .filter(Boolean),
  ];
}

function header(value: string, previous: string[] = []): string[] {
  if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+:/.test(value)) throw new InvalidArgumentError('must look like "Name: value"');
  return [...previous, value];
}

function headersOf(lines: readonly string[]): Record<string, string> {
  return Object.fromEntries(
    lines.map((line) => [line.slice(0, line.indexOf(':')).trim(), line.slice(line.indexOf(':') + 1).trim()]),
  );
}

async function listChecks(io: CliIo): Promise<number> {
  const { ALL_CHECKS } = await import('../contract/checks/registry.js');
  const width = Math.max(...ALL_CHECKS.map((check) => check.name.length));
  for (const check of ALL_CHECKS)
    io.stdout.write(`${check.name.padEnd(width)}  ${check.severity.padEnd(7)}  ${check.description}\n`);
  return EXIT.ok;
}

/** Resolves flags and environment into runner options; missing essentials are tool errors. */
function contractOptions(flags: CheckFlags, env: CliIo['env']): ContractOptions {
  const baseUrl = flags.baseUrl ?? env.KENNEL_BASE_URL;
  // Optional: the runner asks for one only when an operation it checks requires credentials.
  const apiKey = flags.apiKey ?? env.KENNEL_API_KEY ?? '';
  if (!baseUrl)
    throw new ToolError(
      '--base-url is required (or KENNEL_BASE_URL): the deployment to check, e.g. https://petstore.example.com/v1',
    );
  return {
    baseUrl,
    apiKey,
    specPath: flags.spec ?? PETSTORE_SPEC,
    seed: flags.seed ?? Math.floor(Math.random() * 2 ** 31),
    checks: flags.check ?? [],
    excludeChecks: flags.excludeCheck ?? [],
    maxExamples: flags.maxExamples,
    readOnly: flags.readOnly ?? false,
    timeoutMs: flags.timeout,
    concurrency: flags.concurrency,
    rateLimit: flags.rateLimit,
    operations: flags.operation ?? [],
    tags: flags.tag ?? [],
    headers: headersOf(flags.header ?? []),
    strict: flags.strict ?? false,
    requireExercised: flags.requireExercised ?? false,
    maxFailures: flags.exitfirst ? 1 : flags.maxFailures,
    waitForMs: Math.round((flags.waitFor ?? 0) * 1000),
    maxResponseBytes: flags.maxResponseSize,
  };
}

/** `--wait-for 10`, `--wait-for 2.5`: seconds from 0 to an hour. */
function secondsFlag(value: string): number {
  const seconds = Number(value);
  if (!/^\d+(\.\d+)?$/.test(value.trim()) || seconds > 3600)
    throw new InvalidArgumentError('must be a number of seconds from 0 to 3600');
  return seconds;
}

/** Why a report file cannot be written, in words (not `EEXIST`). */
function reportProblem(error: NodeJS.ErrnoException): string {
  switch (error.code) {
    case 'EEXIST':
    case 'ENOTDIR':
      return 'a file stands where its directory should be';
    case 'EISDIR':
      return 'it is a directory: name a file';
    case 'EACCES':
    case 'EPERM':
      return 'permission denied';
    case 'EROFS':
      return 'the file system is read-only';
    case 'ENOSPC':
      return 'no space left on the device';
    default:
      return error.code ?? error.message;
  }
}

function writeReport(file: string, text: string): Promise<void> {
  return mkdir(path.dirname(path.resolve(file)), { recursive: true })
    .then(() => writeFile(file, text))
    .catch((error: unknown) => {
      throw new ToolError(`cannot write the report: ${reportProblem(error as NodeJS.ErrnoException)}`, file);
    });
}

function fileReporter(file: string, render: (summary: RunSummary) => string): RunListener {
  return { runEnd: (summary) => writeReport(file, render(summary)) };
}

/** Base64 of `user:password` as a Basic credential carries it, with and without padding, and URL-safe. */
function base64Forms(text: string): string[] {
  const plain = Buffer.from(text, 'utf8').toString('base64');
  const url = Buffer.from(text, 'utf8').toString('base64url');
  return [plain, plain.replace(/=+$/, ''), url];
}

/**
 * The spellings of the key a run may send or a deployment may echo beyond what the redactor
 * finds itself (as is, URL-encoded, JSON- or XML-escaped, in any letter case, one character short):
 * inside Basic credentials (base64 of `kennel:<key>` and of the near misses a check sends).
 */
function keySecrets(apiKey: string): Secret[] {
  if (apiKey === '') return [];
  const nearMisses = [apiKey, `${apiKey}x`, apiKey.toUpperCase(), apiKey.toLowerCase(), apiKey.slice(0, -1)];
  const encoded = nearMisses.flatMap((key) => [`kennel:${key}`, `${key}:`, key].flatMap(base64Forms));
  return [
    { value: apiKey, label: '$KENNEL_API_KEY' },
    ...[...new Set(encoded)].map((value) => ({ value, label: REDACTED })),
  ];
}

/** The secret parts of a credential header's value: the whole, a token after its scheme, cookie values, a Basic password. */
function headerSecrets(name: string, value: string): string[] {
  const parts = [value];
  const scheme = /^([A-Za-z][\w-]*)\s+(.+)$/.exec(value.trim());
  if (scheme) {
    parts.push(scheme[2]!);
    if (scheme[1]!.toLowerCase() === 'basic') {
      const decoded = Buffer.from(scheme[2]!, 'base64').toString('utf8');
      parts.push(decoded, ...decoded.split(':').slice(1));
    }
  }
  if (/cookie/i.test(name)) parts.push(...value.split(';').map((pair) => pair.slice(pair.indexOf('=') + 1).trim()));
  return parts.filter((part) => part.length > 0);
}

/** Credentials written into the base URL (`https://user:pass@host`, `?api_key=…`). */
function urlSecrets(baseUrl: string): string[] {
  try {
    const url = new URL(baseUrl);
    return [decodeURIComponent(url.password), ...[...url.searchParams.values()]].filter((part) => part.length > 0);
  } catch {
    return [];
  }
}

/**
 * Reports never show the API key, nor the value of a --header that carries a credential, nor a
 * credential in the base URL, wherever a deployment echoes them (messages, headers, bodies; in
 * Basic credentials; near misses of the key included). This is the last pass over every report.
 */
function reportRedactor(options: ContractOptions): Redactor {
  const secrets: Secret[] = keySecrets(options.apiKey);
  for (const [name, value] of Object.entries(options.headers ?? {})) {
    if (isCredentialHeader(name))
      for (const part of headerSecrets(name, value)) secrets.push({ value: part, label: REDACTED });
  }
  for (const part of urlSecrets(options.baseUrl)) secrets.push({ value: part, label: REDACTED });
  return new Redactor({ secrets });
}

/** The flags' report files, so that even a run that could not start leaves a report saying why. */
async function writeToolErrorReports(flags: CheckFlags, message: string, redactor: Redactor | undefined) {
  const { junitForToolError } = await import('../contract/reporters/junit.js');
  const { jsonForToolError } = await import('../contract/reporters/json.js');
  const hide = (text: string) => hideUrlCredentials(redactor ? redactor.text(text) : text);
  const baseUrl = flags.baseUrl;
  const writes = [
    ...(flags.junit ? [writeReport(flags.junit, hide(junitForToolError(message)))] : []),
    ...(flags.json ? [writeReport(flags.json, hide(jsonForToolError(message, baseUrl)))] : []),
  ];
  await Promise.allSettled(writes);
}

async function check(flags: CheckFlags, io: CliIo): Promise<number> {
  if (flags.listChecks) return listChecks(io);
  let redactor: Redactor | undefined;
  let started = false;
  try {
    const options = contractOptions(flags, io.env);
    redactor = reportRedactor(options);
    // Loaded on use, so that `kennel serve` does not pay for the contract runner at start-up.
    if (flags.quiet && flags.verbose) throw new ToolError('--quiet and --verbose contradict each other: choose one');
    const [{ runContract }, { consoleReporter }, { terminalProgress }, { junitXml }, { jsonReport }] =
      await Promise.all([
        import('../contract/run/runner.js'),
        import('../contract/reporters/console.js'),
        import('../contract/reporters/progress.js'),
        import('../contract/reporters/junit.js'),
        import('../contract/reporters/json.js'),
      ]);
    const hide = redactor;
    const { apiKey } = options;
    // A live line on a terminal; plain lines in a CI log or a pipe.
    const live = io.stderrIsTerminal === true && !flags.quiet;
    const detail = flags.quiet ? 'quiet' : flags.verbose ? 'verbose' : 'normal';
    const listeners: RunListener[] = [
      { runStart: () => void (started = true) },
      ...(live ? [terminalProgress((text) => io.stderr.write(text))] : []),
      consoleReporter((text) => io.stdout.write(hide.text(text)), apiKey, { detail, live }),
    ];
    if (flags.junit) listeners.push(fileReporter(flags.junit, (run) => hide.text(junitXml(run, apiKey))));
    if (flags.json) listeners.push(fileReporter(flags.json, (run) => hide.text(jsonReport(run, apiKey))));
    const onLoadWarning = (warning: { location: string; message: string }): void =>
      void io.stderr.write(`kennel: warning: ${warning.location}: ${warning.message}\n`);
    const summary = await runContract({ ...options, signal: io.signal, onLoadWarning }, listeners);
    if (io.signal.aborted)
      io.stderr.write(`kennel: ${summary.stopped ?? 'interrupted'}: the reports hold what was found before (exit 2)\n`);
    return summary.exitCode === 0 ? EXIT.ok : summary.exitCode === 1 ? EXIT.findings : EXIT.toolError;
  } catch (error) {
    // A run that started has written its reports (runEnd always comes); one that did not, writes why.
    if (!started && (flags.junit || flags.json)) {
      const message = error instanceof Error ? error.message : String(error);
      await writeToolErrorReports(flags, message, redactor);
    }
    throw error;
  }
}

/** Declares `kennel check`. */
export function checkCommand(program: Command, io: CliIo, finish: (code: number) => void): void {
  program
    .command('check')
    .description('verify a live deployment against the document: exit 0 conforms, 1 findings, 2 could not run')
    .argument('[document]', DOCUMENT_HELP)
    .option('--base-url <url>', 'the deployment, including /v1 (env KENNEL_BASE_URL)')
    .option(
      '--api-key <key>',
      'an API key the deployment accepts (env KENNEL_API_KEY); needed only when a checked operation requires credentials',
    )
    .option('--spec <document>', 'the document, as a flag: a file or an http(s) URL')
    .option(
      '--seed <n>',
      'seed of the generated data (default: random, printed in every report)',
      integerIn(0, 2 ** 31 - 1),
    )
    .option('--check <names>', 'only these checks (comma-separated, repeatable; all: every check)', names)
    .option('--exclude-check <names>', 'skip these checks (comma-separated, repeatable)', names)
    .option(
      '--max-examples <n>',
      `generated cases per check and operation (default ${CONTRACT_DEFAULTS.maxExamples})`,
      integerIn(1, 10_000),
    )
    .option('--read-only', 'send no request that could change state')
    .option('--timeout <ms>', `per-request timeout (default ${CONTRACT_DEFAULTS.timeoutMs})`, integerIn(1, 600_000))
    .option(
      '--concurrency <n>',
      `requests in flight at once (default ${CONTRACT_DEFAULTS.concurrency})`,
      integerIn(1, 256),
    )
    .option('--rate-limit <n>', 'requests per second at most (default: no limit)', integerIn(1, 100_000))
    .option('--operation <id>', 'only this operation (operationId or "GET /path"), repeatable', collect)
    .option('--tag <tag>', 'only operations with this tag, repeatable', collect)
    .option('--header <header>', 'extra request header "Name: value", repeatable', header)
    .option('--junit <file>', 'write a JUnit XML report')
    .option('--json <file>', 'write a JSON report')
    .option('--strict', 'warnings fail the run too')
    .option(
      '--require-exercised',
      'checks that applied but judged nothing fail the run (exit 2; by default they are listed and the run conforms where exercised)',
    )
    .option(
      '--max-failures <n>',
      'stop after this many failing findings (reports are still written)',
      integerIn(1, 1_000_000),
    )
    .option('-x, --exitfirst', 'stop at the first failing finding (--max-failures 1)')
    .option(
      '--wait-for <seconds>',
      'retry a refused connection to the base URL this long before giving up (default 0)',
      secondsFlag,
    )
    .option(
      '--max-response-size <size>',
      `largest response body read, decompressed (default ${CONTRACT_DEFAULTS.maxResponseBytes / 1024 / 1024}mb): larger ones are cut off and reported`,
      byteSizeIn(1024, 1024 ** 3),
    )
    .option('-q, --quiet', 'print only findings and the verdict')
    .option('-v, --verbose', 'also print each check on each operation as it finishes')
    .option('--list-checks', 'list the checks and exit')
    .action(async (document: string | undefined, flags: CheckFlags) =>
      finish(await check({ ...flags, spec: documentOf(document, flags.spec) }, io)),
    );
}
