import { createHash } from 'node:crypto';
import { StoreUnavailable } from '../store-unavailable.js';
import { hideUrlCredentials } from '../../core/redact.js';
import { ToolError } from '../../core/tool-error.js';

/** How long one command may take before the request that needed it answers 503 (docs/hardening.md). */
export const COMMAND_TIMEOUT_MS = 3_000;
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
  const shown = hideUrlCredentials(url);
  try {
    parsed = new URL(url);
  } catch {
    throw new ToolError(`${setting}${shown}: not a URL (redis://host:port, rediss://host:port or unix:///path.sock)`);
  }
  if (!['redis:', 'rediss:', 'unix:'].includes(parsed.protocol))
    throw new ToolError(
      `${setting}${redisLabel(url)}: unknown scheme ${parsed.protocol} (memory, redis://host:port, rediss://host:port or unix:///path.sock)`,
    );
  if (parsed.protocol === 'unix:' && parsed.pathname === '')
    throw new ToolError(`${setting}${shown}: a unix URL names the socket's path: unix:///path/to/redis.sock`);
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
  const makeClient = (): RawClient => {
    const client = createClient({
      url,
      disableOfflineQueue: true,
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
    return client as unknown as RawClient;
  };
  const first = makeClient();
  try {
    await first.connect();
  } catch (error) {
    first.destroy();
    throw new ToolError(`cannot reach ${label}: ${errorCode(lastError ?? error)}`);
  }
  connected = true;
  return new ClientLink(first, makeClient, label);
}

/** The part of node-redis's client this link uses. */
interface RawClient {
  connect(): Promise<unknown>;
  sendCommand(args: readonly string[]): Promise<unknown>;
  multi(): { addCommand(args: readonly string[]): unknown; exec(): Promise<unknown> };
  close(): Promise<void>;
  destroy(): void;
}

/** A command that outlived the deadline: the connection it waits on is dropped. */
class DeadlineExceeded extends Error {
  readonly code = `nothing within ${COMMAND_TIMEOUT_MS} ms`;
}

/**
 * One connection at a time, every command bounded by COMMAND_TIMEOUT_MS. node-redis stops
 * counting a command's own timeout once it is written, so a slow or frozen server would hold
 * every caller: the deadline is kept here. When it passes, the connection is dropped (its other
 * waiting commands fail at once, and no late reply can be read as another command's) and a
 * fresh one connects in the background; until it is ready, commands fail at once (503).
 */
class ClientLink implements RedisLink {
  #client: RawClient;
  readonly #makeClient: () => RawClient;
  readonly #shas = new Map<string, string>();
  readonly label: string;

  constructor(client: RawClient, makeClient: () => RawClient, label: string) {
    this.#client = client;
    this.#makeClient = makeClient;
    this.label = label;
  }

  async script(source: string, args: readonly string[]): Promise<unknown> {
    let sha = this.#shas.get(source);
    if (!sha) this.#shas.set(source, (sha = createHash('sha1').update(source).digest('hex')));
    try {
      return await this.#bounded((client) => client.sendCommand(['EVALSHA', sha, '0', ...args]));
    } catch (error) {
      // Redis forgets scripts when it restarts: EVAL sends the source and caches it again.
      if (!(error instanceof Error) || !error.message.startsWith('NOSCRIPT')) throw this.#unavailable(error);
      return this.command(['EVAL', source, '0', ...args]);
    }
  }

  async command(args: readonly string[]): Promise<unknown> {
    try {
      return await this.#bounded((client) => client.sendCommand(args));
    } catch (error) {
      throw this.#unavailable(error);
    }
  }

  async transaction(commands: readonly (readonly string[])[]): Promise<void> {
    try {
      await this.#bounded((client) => {
        const multi = client.multi();
        for (const command of commands) multi.addCommand(command);
        return multi.exec();
      });
    } catch (error) {
      throw this.#unavailable(error);
    }
  }

  /** Closes gracefully, or drops the connection when the server does not answer within the deadline. */
  async close(): Promise<void> {
    const client = this.#client;
    const timer = setTimeout(() => client.destroy(), COMMAND_TIMEOUT_MS);
    try {
      await client.close();
    } catch {
      // Already closed or never reconnected: nothing is left to release.
      client.destroy();
    } finally {
      clearTimeout(timer);
    }
  }

  /** Runs `call` on the current connection, or rejects with DeadlineExceeded and drops that connection. */
  async #bounded<T>(call: (client: RawClient) => Promise<T>): Promise<T> {
    const client = this.#client;
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<never>((_resolve, reject) => {
      timer = setTimeout(() => reject(new DeadlineExceeded()), COMMAND_TIMEOUT_MS);
    });
    try {
      return await Promise.race([call(client), deadline]);
    } catch (error) {
      if (error instanceof DeadlineExceeded) this.#replace(client);
      throw error;
    } finally {
      clearTimeout(timer);
    }
  }

  /** Drops `stuck` (once: later deadlines on it find it replaced) for a connection made afresh. */
  #replace(stuck: RawClient): void {
    if (stuck !== this.#client) return;
    const fresh = this.#makeClient();
    this.#client = fresh;
    stuck.destroy();
    // Retries by itself (reconnectStrategy); 'error' events are logged, never thrown.
    fresh.connect().catch(() => undefined);
  }

  /** A Redis reply error kennel's scripts raise passes as it is; anything else is the store unavailable. */
  #unavailable(error: unknown): Error {
    if (error instanceof Error && error.message.includes('KENNEL_')) return error;
    return new StoreUnavailable(this.label, errorCode(error));
  }
}
