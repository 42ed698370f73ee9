// Journal pressure: pets with large names, then many list responses of them, so a journal that
// keeps whole bodies would hold hundreds of megabytes; the server's RSS before, after, and after
// the journal is cleared says whether it is bounded by bytes.
import { bearer, pool } from './api-client.js';
import { memoryOf } from './children.js';

/**
 * `pets` pets of `nameBytes` each for `key`, then `lists` GET /v1/pets?limit=100 with that key.
 * Resolves {created, createStatuses, listBytes, rss: {beforeMb, afterListsMb, afterClearMb}}.
 */
export async function runJournalPressure({ client, key, admin, pid, pets, nameBytes, lists }) {
  const beforeMb = memoryOf(pid)?.rssMb;
  const createStatuses = {};
  await pool(
    Array.from({ length: pets }, (_, index) => index),
    4,
    async (index) => {
      const response = await client
        .post('/v1/pets', { name: `${index}-${'j'.repeat(nameBytes)}`, categoryId: 1 }, bearer(key))
        .catch((error) => ({ status: error.code ?? 'error', body: '' }));
      createStatuses[response.status] = (createStatuses[response.status] ?? 0) + 1;
    },
  );
  let listBytes = 0;
  await pool(
    Array.from({ length: lists }, (_, index) => index),
    4,
    async () => {
      const response = await client.get('/v1/pets?limit=100', bearer(key)).catch(() => ({ body: '' }));
      listBytes += Buffer.byteLength(response.body);
    },
  );
  const afterListsMb = memoryOf(pid)?.rssMb;
  await client.send('DELETE', '/__kennel/journal', { headers: bearer(admin) }).catch(() => undefined);
  await new Promise((resolve) => setTimeout(resolve, 300));
  return {
    created: createStatuses[201] ?? 0,
    createStatuses,
    listBytes,
    rss: { beforeMb, afterListsMb, afterClearMb: memoryOf(pid)?.rssMb },
  };
}
