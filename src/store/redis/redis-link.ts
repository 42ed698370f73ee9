import { createHash } from 'node:crypto';
import { ProblemError } from '../../core/problem.js';
import { ToolError } from '../../core/tool-error.js';

/** How long one command may take before the request that needed it answers 503. */
const COMMAND_TIMEOUT_MS = 3_000;
/** How long the first connection may take before start-up gives up (exit 2). */
const CONNECT_TIMEOUT_MS = 3_000;

/** A connection to one Redis server: Lua scripts by SHA (loaded on first use), plain commands, transactions. */
export interface RedisLink {
  /** Where it points, without credentials: `redis://127.0.0.1:6379`, `unix:///run/redis.sock`. */
  readonly label: string;
  script(source: string, args: readonly string[]): Promise<unknown>;
  command(args: readonly string[]): Promise<unknown>;
  /** Runs the commands as one MULTI/EXEC transaction. */
  transaction(commands: readonly (readonly string[])[]): Promise<void>;
  close(): Promise<void>;
}

/** The URL without user and password, for messages and the banner. */
export function redisLabel(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.protocol === 'unix:') return `unix://${parsed.pathname}`;
    return `${parsed.protocol}//${parsed.host}${parsed.pathname === '/' ? '' : parsed.pathname}`;
  } catch {
    return '(an unparsable URL)';
  }
}

/**
 * Checks the store URL's form: redis://host:port[/db], rediss:// (TLS), or unix:///path/to.sock.
 * `setting` names where it came from in messages: `--store ` (the default) or `KENNEL_STORE=`.
 */
export function checkRedisUrl(url: string, setting = '--store '): void {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new ToolError(`${setting}${url}: not a URL (redis://host:port, rediss://host:port or unix:///path.sock)`);
  }
  if (!['redis:', 'rediss:', 'unix:'].includes(parsed.protocol))
    throw new ToolError(
      `${setting}${redisLabel(url)}: unknown scheme ${parsed.protocol} (memory, redis://host:port, rediss://host:port or unix:///path.sock)`,
    );
  if (parsed.protocol === 'unix:' && parsed.pathname === '')
    throw new ToolError(`${setting}${url}: a unix URL names the socket's path: unix:///path/to/redis.sock`);
  if (parsed.protocol !== 'unix:' && !/^(\/\d*)?$/.test(parsed.pathname))
    throw new ToolError(
      `${setting}${redisLabel(url)}: the path is a database number (redis://host:port/0), not ${parsed.pathname}`,
    );
}

function errorCode(error: unknown): string {
  const { code, message } = error as { code?: string; message?: string };
  return code ?? message ?? String(error);
}

/** Connects, or throws a ToolError naming the server and why (`ECONNREFUSED`): kennel exits 2. */
export async function connectRedis(url: string, onError: (message: string) => void): Promise<RedisLink> {
  checkRedisUrl(url);
  const label = redisLabel(url);
  const { createClient } = await import('@redis/client');
  let connected = false;
  let lastError: unknown;
  const client = createClient({
    url,
    disableOfflineQueue: true,
    commandOptions: { timeout: COMMAND_TIMEOUT_MS },
    socket: {
      connectTimeout: CONNECT_TIMEOUT_MS,
      // Before the first connection: give up at once (start-up fails); after: retry, at most every 2 s.
      reconnectStrategy: (retries: number, cause: Error) => {
        if (!connected) return cause;
        return Math.min(100 * (retries + 1), 2_000);
      },
    },
  });
  client.on('error', (error: unknown) => {
    lastError = error;
    if (connected) onError(`${label}: ${errorCode(error)}`);
  });
  try {
    await client.connect();
  } catch (error) {
    await client.destroy?.();
    throw new ToolError(`cannot reach ${label}: ${errorCode(lastError ?? error)}`);
  }
  connected = true;
  return new ClientLink(client as unknown as RawClient, label);
}

/** The part of node-redis's client this link uses. */
interface RawClient {
  sendCommand(args: readonly string[]): Promise<unknown>;
  multi(): { addCommand(args: readonly string[]): unknown; exec(): Promise<unknown> };
  close(): Promise<void>;
}

class ClientLink implements RedisLink {
  readonly #client: RawClient;
  readonly #shas = new Map<string, string>();
  readonly label: string;

  constructor(client: RawClient, label: string) {
    this.#client = client;
    this.label = label;
  }

  async script(source: string, args: readonly string[]): Promise<unknown> {
    let sha = this.#shas.get(source);
    if (!sha) this.#shas.set(source, (sha = createHash('sha1').update(source).digest('hex')));
    try {
      return await this.#client.sendCommand(['EVALSHA', sha, '0', ...args]);
    } catch (error) {
      // Redis forgets scripts when it restarts: EVAL sends the source and caches it again.
      if (!(error instanceof Error) || !error.message.startsWith('NOSCRIPT')) throw this.#unavailable(error);
      return this.command(['EVAL', source, '0', ...args]);
    }
  }

  async command(args: readonly string[]): Promise<unknown> {
    try {
      return await this.#client.sendCommand(args);
    } catch (error) {
      throw this.#unavailable(error);
    }
  }

  async transaction(commands: readonly (readonly string[])[]): Promise<void> {
    const multi = this.#client.multi();
    for (const command of commands) multi.addCommand(command);
    try {
      await multi.exec();
    } catch (error) {
      throw this.#unavailable(error);
    }
  }

  async close(): Promise<void> {
    try {
      await this.#client.close();
    } catch {
      // Already closed or never reconnected: nothing is left to release.
    }
  }

  /** A Redis reply error kennel's scripts raise passes as it is; anything else is a 503. */
  #unavailable(error: unknown): Error {
    if (error instanceof Error && error.message.includes('KENNEL_')) return error;
    return new ProblemError(
      503,
      'store_unavailable',
      `The shared store at ${this.label} did not answer (${errorCode(error)}); try again shortly`,
      { 'Retry-After': '1' },
    );
  }
}
