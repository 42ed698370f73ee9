import { mkdtempSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { thingsDocument } from '../helpers/things-document.js';
import { NO_REDIS, startRedis, type TestRedis } from '../helpers/redis-server.js';

const DOCUMENT = (nameSchema: string): string =>
  thingsDocument(`      required: [id, name]
      properties:
        id: { type: integer, readOnly: true }
        name: ${nameSchema}
`);

let redis: TestRedis;
beforeAll(async () => {
  if (!NO_REDIS) redis = await startRedis();
});
afterAll(async () => redis?.dispose());

describe.skipIf(NO_REDIS)('kennel serve --watch --store redis://', () => {
  it('a reload leaves the shared store as it is, and its line says so rather than "kept 0 items"', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'kennel-watch-redis-'));
    const spec = path.join(dir, 'things.yaml');
    writeFileSync(spec, DOCUMENT('{ type: string }'));
    const cli = runCli([
      'serve',
      '--port',
      '0',
      '--no-world',
      '--spec',
      spec,
      '--watch',
      '--store',
      redis.url,
      '--log-format',
      'pretty',
    ]);
    try {
      const { url } = await cli.ready;
      const created = await fetch(`${url}/things`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"name":"Longer than three"}',
      });
      expect(created.status).toBe(201);
      const { id } = (await created.json()) as { id: number };

      // The new schema no longer fits the item: in memory it would be dropped; Redis keeps it.
      writeFileSync(`${spec}.tmp`, DOCUMENT('{ type: string, maxLength: 3 }'));
      renameSync(`${spec}.tmp`, spec);
      await cli.stderrUntil('kennel: reloaded');

      expect(cli.stderr()).toContain(
        `kennel: reloaded ${spec}: 2 operations; the shared store (Redis) is left as it is\n`,
      );
      expect(cli.stderr()).not.toContain('kept 0 items');
      // The pretty log line is the same sentence, with no field block under it.
      const logged = cli.logs();
      const at = logged.findIndex((line) => line.includes('INFO: reloaded'));
      expect(logged[at]).toMatch(/the shared store \(Redis\) is left as it is$/);
      expect(logged[at + 1] ?? '').not.toMatch(/^\s+\w+:/);
      expect((await fetch(`${url}/things/${id}`)).status).toBe(200);
    } finally {
      cli.stop();
      await cli.code;
    }
  }, 30_000);
});
