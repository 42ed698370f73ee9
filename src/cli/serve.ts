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
import type { CliIo } from './io.js';
import { byteSize, collect, integerIn, memorySize, oneOf } from './options.js';
import { chaosBannerLines, chaosOptions, resolveChaosConfig, type ChaosFlags } from './chaos-options.js';

interface ServeFlags {
  host?: string;
  port?: number;
  seed?: number;
  pets?: number;
  apiKey?: string[];
  spec?: string;
  logLevel?: LogLevel;
  sharedStore?: boolean;
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
}

/** Declares `kennel serve` and its flags on `program`. */
export function serveCommand(program: Command, io: CliIo, finish: (code: number) => void): void {
  const command = program
    .command('serve')
    .description('serve a stateful mock of the Pet Store API (or of any OpenAPI document with --spec)')
    .option('--host <host>', `interface to bind (env KENNEL_HOST; default ${DEFAULT_CONFIG.host})`)
    .option(
      '--port <port>',
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
    .option('--spec <file>', 'OpenAPI 3.0/3.1 or Swagger 2.0 document to serve (default: the bundled Pet Store spec)')
    .option('--log-level <level>', `request log level (default ${DEFAULT_CONFIG.logLevel})`, oneOf(LOG_LEVELS))
    .option('--shared-store', 'one store for every API key instead of one per key')
    .option('--stateless', "keep no state: answer every operation from the spec's examples through Prism")
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
    .option('--no-world', "do not serve the domain simulator's control API under /__kennel/world");
  chaosOptions(command).action(async (flags: ServeFlags & ChaosFlags) =>
    finish(await serve({ ...resolveConfig(flags, io.env), ...(await resolveChaosConfig(flags, io.env)) }, io)),
  );
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

/** Flags beat environment variables, which beat defaults. */
export function resolveConfig(flags: ServeFlags, env: CliIo['env']): MockConfig {
  return {
    host: flags.host ?? (env.KENNEL_HOST || DEFAULT_CONFIG.host),
    port: flags.port ?? envPort(env) ?? DEFAULT_CONFIG.port,
    seed: flags.seed ?? DEFAULT_CONFIG.seed,
    pets: flags.pets ?? DEFAULT_CONFIG.pets,
    apiKeys: flags.apiKey ?? envKeys(env),
    tenancy: flags.sharedStore ? 'shared' : 'per-key',
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
  };
}

function worldLines(running: RunningMock): string[] {
  if (!running.world) return [];
  const lines = [`  domains  ${running.origin}/__kennel/world  (domain simulator control API: spec/domains.yaml)`];
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

/** Runs the mock until `io.signal` aborts; returns the exit code. */
async function serve(config: MockConfig, io: CliIo): Promise<number> {
  const logger = pino(
    { level: config.logLevel, base: { service: 'kennel' }, timestamp: pino.stdTimeFunctions.isoTime },
    io.logStream,
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
  io.onReady?.({ url: running.url, origin: running.origin });
  await new Promise<void>((resolve) => {
    if (io.signal.aborted) resolve();
    else io.signal.addEventListener('abort', () => resolve(), { once: true });
  });
  await running.close();
  logger.flush?.();
  return 0;
}
