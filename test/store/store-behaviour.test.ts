import { afterAll, beforeAll, describe } from 'vitest';
import { ResourceStore } from '../../src/store/resource-store.js';
import { connectRedis, type RedisLink } from '../../src/store/redis/redis-link.js';
import { RedisStore } from '../../src/store/redis/redis-store.js';
import { NO_REDIS, startRedis, type TestRedis } from '../helpers/redis-server.js';
import { storeBehaviour } from './store.case.js';

storeBehaviour('in-memory', async (options) => new ResourceStore(options));

describe.skipIf(NO_REDIS)('against a real redis-server', () => {
  let redis: TestRedis;
  let link: RedisLink;
  beforeAll(async () => {
    redis = await startRedis();
    link = await connectRedis(redis.url, () => {});
  });
  afterAll(async () => {
    await link?.close();
    await redis?.dispose();
  });

  storeBehaviour('Redis', async (options) => {
    await redis.send('FLUSHALL');
    const store = new RedisStore(link, options);
    await store.prepare();
    return store;
  });
});
