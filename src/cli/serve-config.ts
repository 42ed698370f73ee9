import { PETSTORE_SPEC } from '../assets.js';
import { ToolError } from '../core/tool-error.js';
import { DEFAULT_CONFIG, type MockConfig } from '../mock/config.js';
import { MEMORY_STORE } from '../serve/store-choice.js';
import { checkRedisUrl } from '../store/redis/redis-link.js';
import type { CliIo } from './io.js';
import { allowedHostProblem, integerIn } from './options.js';
import type { ServeFlags } from './serve-options.js';

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

/** The store to use; a bad `KENNEL_STORE` is named as the variable (a bad `--store` is checked on opening). */
function storeUrl(flags: ServeFlags, env: CliIo['env']): string {
  if (flags.store !== undefined) return flags.store;
  const fromEnv = env.KENNEL_STORE;
  if (!fromEnv) return DEFAULT_CONFIG.store;
  if (fromEnv !== MEMORY_STORE) checkRedisUrl(fromEnv, 'KENNEL_STORE=');
  return fromEnv;
}

/**
 * The admin token, refused when no client could send it: empty (as a flag) or whitespace at either
 * end (HTTP trims header values). An empty `KENNEL_ADMIN_TOKEN` means none. Never echoes the token.
 */
function adminToken(flags: ServeFlags, env: CliIo['env']): string | undefined {
  const [token, setting] =
    flags.adminToken !== undefined
      ? [flags.adminToken, '--admin-token']
      : [env.KENNEL_ADMIN_TOKEN, 'KENNEL_ADMIN_TOKEN'];
  if (token === undefined || (token === '' && setting === 'KENNEL_ADMIN_TOKEN')) return undefined;
  const leave = `give a token, or leave ${setting} out to keep the admin API open`;
  if (token === '') throw new ToolError(`${setting} is empty: ${leave}`);
  if (token.trim() === '') throw new ToolError(`${setting} is only whitespace: ${leave}`);
  if (token !== token.trim())
    throw new ToolError(
      `${setting} starts or ends with whitespace, which no Authorization header can carry: remove it`,
    );
  return token;
}

/** `--allowed-host` values, else `KENNEL_ALLOWED_HOSTS` (comma-separated), each checked. */
function allowedHosts(flags: ServeFlags, env: CliIo['env']): string[] {
  if (flags.allowedHost) return flags.allowedHost;
  const names = (env.KENNEL_ALLOWED_HOSTS ?? '')
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '');
  for (const name of names) {
    const problem = allowedHostProblem(name);
    if (problem) throw new ToolError(`KENNEL_ALLOWED_HOSTS: ${problem}`);
  }
  return names;
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
    store: storeUrl(flags, env),
    dataFile: dataFlag(flags),
    stateless: flags.stateless ?? DEFAULT_CONFIG.stateless,
    ...(flags.dynamic ? { dynamic: true } : {}),
    ...(flags.prismQuery ? { prismQuery: true } : {}),
    listOrder: flags.order ?? DEFAULT_CONFIG.listOrder,
    maxItemsPerTenant: flags.maxPets ?? DEFAULT_CONFIG.maxItemsPerTenant,
    maxStoreBytes: flags.maxStoreBytes ?? DEFAULT_CONFIG.maxStoreBytes,
    maxTotalBytes: flags.maxTotalBytes ?? DEFAULT_CONFIG.maxTotalBytes,
    maxBodyBytes: flags.maxBody ?? DEFAULT_CONFIG.maxBodyBytes,
    journalSize: flags.journalSize ?? DEFAULT_CONFIG.journalSize,
    journalBytes: flags.journalBytes ?? DEFAULT_CONFIG.journalBytes,
    adminToken: adminToken(flags, env),
    allowedHosts: allowedHosts(flags, env),
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
