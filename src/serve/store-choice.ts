import type { Logger } from 'pino';
import { StoreUnavailable } from '../store/store-unavailable.js';
import { ToolError } from '../core/tool-error.js';
import type { RedisStore } from '../store/redis/redis-store.js';
import type { StoreFactory } from '../mock/respond/resource-setup.js';

/** The value of `--store` that keeps state in this process (the default). */
export const MEMORY_STORE = 'memory';

/** A store opened at start-up: how the app makes it, and what must happen before the first request. */
export interface OpenedStore {
  makeStore: StoreFactory;
  /** Seeds Redis for the configured seed when it holds none; a ToolError when it cannot (exit 2). */
  prepare(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Opens the store `--store` names: undefined for memory, else a connection to the Redis server
 * (its client is imported only then: start-up stays fast without it).
 */
export async function openStore(url: string, logger: Logger): Promise<OpenedStore | undefined> {
  if (url === MEMORY_STORE) return undefined;
  const [{ connectRedis }, { RedisStore: Redis }] = await Promise.all([
    import('../store/redis/redis-link.js'),
    import('../store/redis/redis-store.js'),
  ]);
  const link = await connectRedis(url, (message) => logger.warn({ store: link.label }, `redis: ${message}`));
  let made: RedisStore | undefined;
  return {
    makeStore: (options) => (made = new Redis(link, options)),
    prepare: async () => {
      try {
        await made?.prepare();
      } catch (error) {
        await link.close();
        if (error instanceof StoreUnavailable) throw new ToolError(`cannot seed ${link.label}: ${error.message}`);
        throw error;
      }
    },
    close: () => link.close(),
  };
}
