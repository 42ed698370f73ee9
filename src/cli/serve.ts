import type { Command } from 'commander';
import { pino } from 'pino';
import { PETSTORE_SPEC } from '../assets.js';
import { ToolError } from '../core/tool-error.js';
import {
  DEFAULT_CONFIG,
  DEV_API_KEY,
  LIST_ORDERS,
  LOG_LEVELS,
  type LogLevel,
  type MockConfig,
} from '../mock/config.js';
import type { ListOrder } from '../store/tenant-collection.js';
import type { RunningMock } from '../mock/server.js';
import { serveBanner } from './banner.js';
import { watchDocument } from './spec-watch.js';
import type { CliIo } from './io.js';
import { LOG_FORMATS, logDestination, resolveLogFormat, type LogFormat } from './log-format.js';
import { byteSize, collect, hostName, integerIn, memorySize, oneOf } from './options.js';
import { chaosBannerLines, chaosOptions, resolveChaosConfig, type ChaosFlags } from './chaos-options.js';

interface ServeFlags {
  host?: string;
  port?: number;
  seed?: number;
  pets?: number;
  apiKey?: string[];
  spec?: string;
  logLevel?: LogLevel;
  logFormat?: LogFormat;
  sharedStore?: boolean;
  store?: string;
  data?: string;
  order?: ListOrder;
  stateless?: boolean;
  maxPets?: number;
  maxBody?: number;
  maxStoreBytes?: number;
  maxTotalBytes?: number;
  journalSize?: number;
  journalBytes?: number;
  adminToken?: string;
  cors: boolean;
  world: boolean;
  worldFile?: string;
  dnsPort?: number;
  platformDnsPort?: number;
  sitePort?: number;
  siteHttpPort?: number;
  proxy?: string;
  proxyTimeout?: number;
  proxyMaxResponse?: number;
  watch?: boolean;
}

/** Declares `kennel serve` and its flags on `program`. */
export function serveCommand(program: Command, io: CliIo, finish: (code: number) => void): void {
  const command = program
    .command('serve')
    .description('serve a stateful mock of the Pet Store API (or of any OpenAPI document with --spec)')
    // -h is --host here, as in most servers (http-server, vite); help is --help only.
    .helpOption('--help', 'display help for command')
    .option('-h, --host <host>', `interface to bind (env KENNEL_HOST; default ${DEFAULT_CONFIG.host})`, hostName)
    .option(
      '-p, --port <port>',
      `TCP port, 0 for any free one (env KENNEL_PORT; default ${DEFAULT_CONFIG.port})`,
      integerIn(0, 65535),
    )
    .option('--seed <n>', `seed of the generated pets (default ${DEFAULT_CONFIG.seed})`, integerIn(0, 2 ** 31 - 1))
    .option('--pets <n>', `pets each store starts with (default ${DEFAULT_CONFIG.pets})`, integerIn(0, 100_000))
    .option(
      '--api-key <key>',
      `accepted API key, repeatable (env KENNEL_API_KEYS, comma-separated; default: the development key ${DEV_API_KEY})`,
      collect,
    )
    .option(
      '--spec <file>',
      'OpenAPI 3.0/3.1 or Swagger 2.0 document to serve (default: the bundled spec/petstore.yaml)',
    )
    .option('--watch', "reload the document when it or a file it $ref's changes, keeping the items that still fit")
    .option('--log-level <level>', `request log level (default ${DEFAULT_CONFIG.logLevel})`, oneOf(LOG_LEVELS))
    .option(
      '--log-format <format>',
      `request log as ${LOG_FORMATS.join(' or ')} (env KENNEL_LOG_FORMAT; default pretty on a terminal, else json)`,
      oneOf(LOG_FORMATS),
    )
    .option('--shared-store', 'one store for every API key instead of one per key')
    .option(
      '--store <url>',
      'where state lives: memory, or a Redis server shared by replicas: redis://host:port, unix:///path.sock (env KENNEL_STORE; default memory)',
    )
    .option(
      '--data <file>',
      'save the in-memory store to this JSON file (after changes and on exit) and load it at start',
    )
    .option('--stateless', "keep no state: answer every operation from the document's examples through Prism")
    .option(
      '--order <order>',
      `order of GET /pets: ${LIST_ORDERS.join(' or ')} (default ${DEFAULT_CONFIG.listOrder})`,
      oneOf(LIST_ORDERS),
    )
    .option(
      '--max-pets <n>',
      `pets one store may hold (default ${DEFAULT_CONFIG.maxPetsPerTenant})`,
      integerIn(1, 1_000_000),
    )
    .option(
      '--max-store-bytes <size>',
      `memory the pets created in one store may take (default ${mb(DEFAULT_CONFIG.maxStoreBytes)})`,
      memorySize,
    )
    .option(
      '--max-total-bytes <size>',
      `memory the pets created in all stores may take (default ${mb(DEFAULT_CONFIG.maxTotalBytes)})`,
      memorySize,
    )
    .option('--max-body <size>', `largest request body (default ${DEFAULT_CONFIG.maxBodyBytes / 1024}kb)`, byteSize)
    .option(
      '--journal-size <n>',
      `exchanges kept by the admin journal (default ${DEFAULT_CONFIG.journalSize})`,
      integerIn(0, 100_000),
    )
    .option(
      '--journal-bytes <size>',
      `memory the admin journal may take (default ${mb(DEFAULT_CONFIG.journalBytes)})`,
      memorySize,
    )
    .option(
      '--admin-token <token>',
      'protect the admin API under /__kennel with this bearer token (env KENNEL_ADMIN_TOKEN)',
    )
    .option('--no-cors', 'do not send CORS headers')
    .option(
      '--dns-port <port>',
      'serve the domain simulator over real DNS (UDP and TCP) on this port, 0 for any free one',
      integerIn(0, 65535),
    )
    .option(
      '--platform-dns-port <port>',
      "also serve DNS as the platform's resolver (what Verify and the CA see, its own cache) on this port, 0 for any free one",
      integerIn(0, 65535),
    )
    .option(
      '--site-port <port>',
      "serve the documentation site over HTTPS with the simulator's certificates on this port",
      integerIn(0, 65535),
    )
    .option(
      '--site-http-port <port>',
      'also serve the site over plain HTTP on this port, 0 for any free one (redirects to HTTPS keep the ports; needs --site-port)',
      integerIn(0, 65535),
    )
    .option('--world-file <file>', 'world of the domain simulator (default: the bundled fixtures/world.json)')
    .option('--no-world', "do not serve the domain simulator's control API under /__kennel/world")
    .option(
      '--proxy <url>',
      'forward every API request to this deployment and report how each exchange breaks the document (docs/proxy.md)',
    )
    .option(
      '--proxy-timeout <ms>',
      'with --proxy: longest wait for the upstream (default 30000)',
      integerIn(1, 600_000),
    )
    .option(
      '--proxy-max-response <size>',
      'with --proxy: response bodies up to this size are validated, longer ones pass unvalidated (default 1mb)',
      memorySize,
    );
  chaosOptions(command).action(async (flags: ServeFlags & ChaosFlags) => {
    const format = resolveLogFormat(flags.logFormat, io.env.KENNEL_LOG_FORMAT, io.logIsTerminal ?? false);
    const base = resolveConfig(flags, io.env);
    const config = { ...base, ...(await resolveChaosConfig(flags, io.env, base.proxy)) };
    finish(await serve(config, { logFormat: format, watch: flags.watch ?? false }, io));
  });
}

function mb(bytes: number): string {
  return `${bytes / (1024 * 1024)}mb`;
}

function envKeys(env: CliIo['env']): string[] {
  return (env.KENNEL_API_KEYS ?? '')
    .split(',')
    .map((key) => key.trim())
    .filter((key) => key !== '');
}

function envPort(env: CliIo['env']): number | undefined {
  const raw = env.KENNEL_PORT;
  if (raw === undefined || raw === '') return undefined;
  try {
    return integerIn(0, 65535)(raw);
  } catch {
    throw new ToolError(`KENNEL_PORT=${raw} must be an integer from 0 to 65535`);
  }
}

function sitePorts(flags: ServeFlags): number | undefined {
  if (flags.siteHttpPort !== undefined && flags.sitePort === undefined)
    throw new ToolError('--site-http-port needs --site-port: its redirects lead to the HTTPS listener');
  return flags.siteHttpPort;
}

function proxyFlags(flags: ServeFlags): Pick<MockConfig, 'proxy' | 'proxyTimeoutMs' | 'proxyMaxResponseBytes'> {
  if (!flags.proxy && (flags.proxyTimeout !== undefined || flags.proxyMaxResponse !== undefined))
    throw new ToolError('--proxy-timeout and --proxy-max-response need --proxy <url>');
  const idle = flags.data !== undefined ? '--data' : flags.stateless ? '--stateless' : undefined;
  if (flags.proxy && idle)
    throw new ToolError(
      `${idle} does nothing with --proxy: every API request goes to the deployment, which keeps its own state`,
    );
  return { proxy: flags.proxy, proxyTimeoutMs: flags.proxyTimeout, proxyMaxResponseBytes: flags.proxyMaxResponse };
}

/**
 * `--data` with `--watch` is refused: a reload rebuilds the in-memory store, and tenants loaded from
 * the file but not used yet (known only by their key's hash) could not be carried over.
 */
function dataFlag(flags: ServeFlags): string | undefined {
  if (flags.data !== undefined && flags.watch)
    throw new ToolError('--data and --watch cannot be combined: a reload would lose the saved tenants (docs/state.md)');
  if (flags.data === '') throw new ToolError('--data needs a file name, such as --data kennel-data.json');
  return flags.data;
}

/** Flags beat environment variables, which beat defaults. */
export function resolveConfig(flags: ServeFlags, env: CliIo['env']): MockConfig {
  return {
    host: flags.host ?? (env.KENNEL_HOST || DEFAULT_CONFIG.host),
    port: flags.port ?? envPort(env) ?? DEFAULT_CONFIG.port,
    seed: flags.seed ?? DEFAULT_CONFIG.seed,
    pets: flags.pets ?? DEFAULT_CONFIG.pets,
    apiKeys: flags.apiKey ?? envKeys(env),
    tenancy: flags.sharedStore ? 'shared' : 'per-key',
    store: flags.store ?? (env.KENNEL_STORE || DEFAULT_CONFIG.store),
    dataFile: dataFlag(flags),
    stateless: flags.stateless ?? DEFAULT_CONFIG.stateless,
    listOrder: flags.order ?? DEFAULT_CONFIG.listOrder,
    maxPetsPerTenant: flags.maxPets ?? DEFAULT_CONFIG.maxPetsPerTenant,
    maxStoreBytes: flags.maxStoreBytes ?? DEFAULT_CONFIG.maxStoreBytes,
    maxTotalBytes: flags.maxTotalBytes ?? DEFAULT_CONFIG.maxTotalBytes,
    maxBodyBytes: flags.maxBody ?? DEFAULT_CONFIG.maxBodyBytes,
    journalSize: flags.journalSize ?? DEFAULT_CONFIG.journalSize,
    journalBytes: flags.journalBytes ?? DEFAULT_CONFIG.journalBytes,
    adminToken: flags.adminToken ?? (env.KENNEL_ADMIN_TOKEN || undefined),
    cors: flags.cors,
    logLevel: flags.logLevel ?? DEFAULT_CONFIG.logLevel,
    specPath: flags.spec ?? PETSTORE_SPEC,
    world: flags.world,
    worldFile: flags.worldFile,
    dnsPort: flags.dnsPort,
    platformDnsPort: flags.platformDnsPort,
    sitePort: flags.sitePort,
    siteHttpPort: sitePorts(flags),
    ...proxyFlags(flags),
  };
}

function worldLines(running: RunningMock): string[] {
  if (!running.world) return [];
  const lines = [
    `  domains  ${running.origin}/__kennel/dashboard  (Domains settings and QA bench, in a browser)`,
    `  world    ${running.origin}/__kennel/world  (domain simulator control API: spec/domains.yaml)`,
  ];
  if (running.dns)
    lines.push(
      `  dns      ${running.dns.host} port ${running.dns.port} (UDP and TCP)  try: dig @${running.dns.host} -p ${running.dns.port} example.com SOA`,
    );
  const platformDns = running.world.platformDns();
  if (platformDns)
    lines.push(
      `  dns      ${platformDns.host} port ${platformDns.port} (UDP and TCP)  as the platform resolver: what Verify and the CA see`,
    );
  if (running.site)
    lines.push(
      `  site     https://${running.site.host}:${running.site.port}  (trust ${running.origin}/__kennel/world/ca/root.pem)`,
    );
  if (running.site?.httpPort !== undefined)
    lines.push(
      `  site     http://${running.site.host}:${running.site.httpPort}  (redirects to https keep these ports)`,
    );
  return lines;
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
  const { startMock } = await import('../mock/server.js');
  const running = await startMock({ ...config, logger });
  for (const warning of running.spec.warnings)
    io.stderr.write(`kennel: warning: ${warning.location}: ${warning.message}\n`);
  io.stderr.write(serveBanner(config, running));
  if (running.spec.operations.length === 0)
    io.stderr.write('  note     the document has no operations (no paths): only the admin API answers\n');
  for (const line of worldLines(running)) io.stderr.write(`${line}\n`);
  for (const line of chaosBannerLines(config, running.origin)) io.stderr.write(`${line}\n`);
  const unwatch = watch ? await watchDocument(running, logger, io) : undefined;
  if (unwatch) io.stderr.write(`  watch    ${config.specPath} and the files it references: edits reload\n`);
  io.onReady?.({ url: running.url, origin: running.origin });
  await new Promise<void>((resolve) => {
    if (io.signal.aborted) resolve();
    else io.signal.addEventListener('abort', () => resolve(), { once: true });
  });
  unwatch?.();
  await running.close();
  if (running.proxy) io.stderr.write(running.proxy.summaryText());
  logger.flush?.();
  return 0;
}
