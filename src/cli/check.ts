import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { InvalidArgumentError, type Command } from 'commander';
import { PETSTORE_SPEC } from '../assets.js';
import { REDACTED, Redactor, type Secret } from '../core/redact.js';
import { ToolError } from '../core/tool-error.js';
import { CONTRACT_DEFAULTS } from '../contract/defaults.js';
import type { ContractOptions, RunListener, RunSummary } from '../contract/runner.js';
import type { CliIo } from './io.js';
import { collect, integerIn } from './options.js';
import { EXIT } from './exit-codes.js';

interface CheckFlags {
  baseUrl?: string;
  apiKey?: string;
  spec?: string;
  seed?: number;
  check: string[];
  excludeCheck: string[];
  maxExamples?: number;
  readOnly?: boolean;
  timeout?: number;
  concurrency?: number;
  rateLimit?: number;
  operation: string[];
  tag: string[];
  header: string[];
  junit?: string;
  json?: string;
  strict?: boolean;
  listChecks?: boolean;
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
  const { ALL_CHECKS } = await import('../contract/registry.js');
  const width = Math.max(...ALL_CHECKS.map((check) => check.name.length));
  for (const check of ALL_CHECKS)
    io.stdout.write(`${check.name.padEnd(width)}  ${check.severity.padEnd(7)}  ${check.description}\n`);
  return EXIT.ok;
}

/** Resolves flags and environment into runner options; missing essentials are tool errors. */
function contractOptions(flags: CheckFlags, env: CliIo['env']): ContractOptions {
  const baseUrl = flags.baseUrl ?? env.KENNEL_BASE_URL;
  const apiKey = flags.apiKey ?? env.KENNEL_API_KEY;
  if (!baseUrl)
    throw new ToolError(
      '--base-url is required (or KENNEL_BASE_URL): the deployment to check, e.g. https://petstore.example.com/v1',
    );
  if (!apiKey) throw new ToolError('--api-key is required (or KENNEL_API_KEY): a key the deployment accepts');
  return {
    baseUrl,
    apiKey,
    specPath: flags.spec ?? PETSTORE_SPEC,
    seed: flags.seed ?? Math.floor(Math.random() * 2 ** 31),
    checks: flags.check,
    excludeChecks: flags.excludeCheck,
    maxExamples: flags.maxExamples,
    readOnly: flags.readOnly ?? false,
    timeoutMs: flags.timeout,
    concurrency: flags.concurrency,
    rateLimit: flags.rateLimit,
    operations: flags.operation,
    tags: flags.tag,
    headers: headersOf(flags.header),
    strict: flags.strict ?? false,
  };
}

function fileReporter(file: string, render: (summary: RunSummary) => string): RunListener {
  return {
    async runEnd(summary) {
      try {
        await mkdir(path.dirname(path.resolve(file)), { recursive: true });
        await writeFile(file, render(summary));
      } catch (error) {
        throw new ToolError(
          `cannot write the report: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
          file,
        );
      }
    },
  };
}

/**
 * Reports never show the API key, nor the value of a --header that carries a credential, wherever
 * a deployment echoes them (messages, headers, bodies; near misses of the key included).
 */
function reportRedactor(options: ContractOptions): Redactor {
  const secrets: Secret[] = [{ value: options.apiKey, label: '$KENNEL_API_KEY' }];
  for (const [name, value] of Object.entries(options.headers ?? {})) {
    if (CREDENTIAL_HEADER.test(name)) secrets.push({ value, label: REDACTED });
  }
  return new Redactor({ secrets });
}

const CREDENTIAL_HEADER = /auth|token|secret|password|key|cookie|session|credential/i;

async function check(flags: CheckFlags, io: CliIo): Promise<number> {
  if (flags.listChecks) return listChecks(io);
  const options = contractOptions(flags, io.env);
  // Loaded on use, so that `kennel serve` does not pay for the contract runner at start-up.
  const [{ runContract }, { consoleReporter }, { junitXml }, { jsonReport }] = await Promise.all([
    import('../contract/runner.js'),
    import('../contract/reporters/console.js'),
    import('../contract/reporters/junit.js'),
    import('../contract/reporters/json.js'),
  ]);
  const redactor = reportRedactor(options);
  const { apiKey } = options;
  const listeners: RunListener[] = [consoleReporter((text) => io.stdout.write(redactor.text(text)), apiKey)];
  if (flags.junit) listeners.push(fileReporter(flags.junit, (run) => redactor.text(junitXml(run, apiKey))));
  if (flags.json) listeners.push(fileReporter(flags.json, (run) => redactor.text(jsonReport(run, apiKey))));
  const summary = await runContract(options, listeners);
  return summary.exitCode === 0 ? EXIT.ok : EXIT.findings;
}

/** Declares `kennel check`. */
export function checkCommand(program: Command, io: CliIo, finish: (code: number) => void): void {
  program
    .command('check')
    .description('verify a live deployment against the spec: exit 0 conforms, 1 findings, 2 could not run')
    .option('--base-url <url>', 'the deployment, including /v1 (env KENNEL_BASE_URL)')
    .option('--api-key <key>', 'an API key the deployment accepts (env KENNEL_API_KEY)')
    .option('--spec <file>', 'OpenAPI 3.0/3.1 document (default: the bundled Pet Store spec)')
    .option(
      '--seed <n>',
      'seed of the generated data (default: random, printed in every report)',
      integerIn(0, 2 ** 31 - 1),
    )
    .option('--check <names>', 'only these checks (comma-separated, repeatable)', names, [])
    .option('--exclude-check <names>', 'skip these checks (comma-separated, repeatable)', names, [])
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
    .option('--operation <id>', 'only this operation (operationId or "GET /path"), repeatable', collect, [])
    .option('--tag <tag>', 'only operations with this tag, repeatable', collect, [])
    .option('--header <header>', 'extra request header "Name: value", repeatable', header, [])
    .option('--junit <file>', 'write a JUnit XML report')
    .option('--json <file>', 'write a JSON report')
    .option('--strict', 'warnings fail the run too')
    .option('--list-checks', 'list the checks and exit')
    .action(async (flags: CheckFlags) => finish(await check(flags, io)));
}
