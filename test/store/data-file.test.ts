// Issue 11, item 4b: `--data FILE` keeps the in-memory store across a restart.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ResourceStore, type CollectionSpec } from '../../src/store/resource-store.js';
import { readSnapshot, SNAPSHOT_FORMAT } from '../../src/store/store-snapshot.js';
import { runCli } from '../helpers/cli.js';
import { spawnKennel } from '../helpers/kennel-process.js';
import { waitUntil } from '../helpers/wait.js';

const KEY = 'data-file-secret-key';
const folder = mkdtempSync(path.join(tmpdir(), 'kennel-data-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

const headers = { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' };
const serveArgs = (file: string) => ['--no-world', '--api-key', KEY, '--data', file];

async function createPet(origin: string, name: string) {
  const response = await fetch(`${origin}/v1/pets`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ name, categoryId: 2 }),
  });
  expect(response.status).toBe(201);
  return (await response.json()) as { id: number; name: string };
}

describe('kennel serve --data FILE (spawned)', () => {
  it('keeps created pets across a SIGTERM and a restart, and the id sequence goes on', async () => {
    const file = path.join(folder, 'restart.json');
    const first = await spawnKennel(serveArgs(file));
    let made: { id: number; name: string };
    try {
      made = await createPet(first.origin, 'Survivor');
    } finally {
      expect(await first.stop('SIGTERM')).toBe(0);
    }
    const second = await spawnKennel(serveArgs(file));
    try {
      const read = await fetch(`${second.origin}/v1/pets/${made.id}`, { headers });
      expect(await read.json()).toEqual(made);
      expect((await createPet(second.origin, 'Next')).id).toBe(made.id + 1);
    } finally {
      await second.stop();
    }
    // Tenants are named by a hash of their key: the file never holds the API key.
    expect(readFileSync(file, 'utf8')).not.toContain(KEY);
  }, 60_000);

  it('saves a second after a change, without waiting for shutdown (a crash loses at most that second)', async () => {
    const file = path.join(folder, 'debounced.json');
    const running = await spawnKennel(serveArgs(file));
    try {
      const made = await createPet(running.origin, 'Early');
      const saved = (): string => (existsSync(file) ? readFileSync(file, 'utf8') : '');
      await waitUntil(
        () => saved().includes(`"name":"Early"`),
        () => `${file} to hold the new pet while kennel runs; it holds: ${saved()}`,
      );
      expect(made.id).toBe(31);
    } finally {
      await running.stop('SIGKILL');
    }
  }, 30_000);
});

describe('a broken --data file stops start-up (exit 2) naming file and line, and is left as it was', () => {
  const valid = { format: SNAPSHOT_FORMAT, version: 1, seed: 1, tenants: {} };
  it.each([
    ['not JSON', '{"format": ', /broken\.json: not JSON: .*line 1/],
    [
      'a wrong type',
      JSON.stringify({ ...valid, seed: 'one' }, null, 2),
      /broken\.json:4: \/seed: seed must be an integer from 0/,
    ],
    [
      'an unknown collection',
      JSON.stringify({ ...valid, tenants: { ['a'.repeat(32)]: { '/nope': { next: 1, items: [] } } } }, null, 2),
      /broken\.json:7: \/tenants\/a{32}\/~1nope: the document has no stateful collection \/nope/,
    ],
    [
      'a foreign file',
      JSON.stringify({ pets: [] }),
      /broken\.json:1: \/format: format must be "kennel store snapshot"/,
    ],
  ])('%s', async (_label, text, message) => {
    const file = path.join(folder, 'broken.json');
    writeFileSync(file, text);
    const cli = runCli(['serve', '--port', '0', '--no-world', '--data', file]);
    expect(await cli.code).toBe(2);
    expect(cli.stderr()).toMatch(message);
    expect(cli.stderr()).not.toMatch(/\n\s+at /);
    expect(readFileSync(file, 'utf8')).toBe(text);
  });

  it('refuses a file it could never save (a missing folder) at start-up instead of losing every save', async () => {
    const missing = path.join(folder, 'no-such-folder');
    const cli = runCli(['serve', '--port', '0', '--no-world', '--data', path.join(missing, 'state.json')]);
    expect(await cli.code).toBe(2);
    expect(cli.stderr()).toMatch(/no-such-folder\/state\.json: cannot write the data file \(ENOENT\)/);
    expect(cli.stderr()).not.toMatch(/unexpected failure|\n\s+at /);
  });

  it('refuses an empty --data (it would save to ".PID.tmp" in the working folder)', async () => {
    const cli = runCli(['serve', '--port', '0', '--no-world', '--data', '']);
    expect(await cli.code).toBe(2);
    expect(cli.stderr()).toMatch(/--data needs a file name/);
  });

  it('refuses --data with --store redis:// (Redis keeps its own state)', async () => {
    const cli = runCli([
      'serve',
      '--port',
      '0',
      '--no-world',
      '--data',
      path.join(folder, 'x.json'),
      '--store',
      'redis://127.0.0.1:1',
    ]);
    expect(await cli.code).toBe(2);
  });
});

describe('readSnapshot', () => {
  const pets: CollectionSpec = { key: { property: 'id', kind: 'integer' }, seed: () => [{ id: 1, name: 'Seeded' }] };
  const collections = new Map([['/pets', pets]]);
  const tenant = 'b'.repeat(32);
  const of = (collection: unknown) => ({
    format: SNAPSHOT_FORMAT,
    version: 1,
    seed: 3,
    tenants: { [tenant]: { '/pets': collection } },
  });

  it.each([
    ['items not an array', { next: 2, items: {} }, '/tenants/bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb/~1pets/items'],
    [
      'an item without its key',
      { next: 2, items: [{ value: { name: 'x' }, created: true }] },
      '/tenants/bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb/~1pets/items/0/value',
    ],
    [
      'a key twice',
      {
        next: 2,
        items: [
          { value: { id: 1 }, created: true },
          { value: { id: 1 }, created: true },
        ],
      },
      '/tenants/bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb/~1pets/items/1/value/id',
    ],
    ['next below 1', { next: 0, items: [] }, '/tenants/bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb/~1pets/next'],
    [
      'an extra field',
      { next: 1, items: [], __proto__x: 1 },
      '/tenants/bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb/~1pets/__proto__x',
    ],
  ])('refuses %s, naming where', (_label, collection, pointer) => {
    expect(readSnapshot(of(collection), collections)).toMatchObject({ ok: false, pointer });
  });

  it('refuses a __proto__ collection or tenant (JSON.parse makes them own properties)', () => {
    const hostile = JSON.parse(`{"format":"${SNAPSHOT_FORMAT}","version":1,"seed":1,"tenants":{"__proto__":{}}}`);
    expect(readSnapshot(hostile, collections)).toMatchObject({ ok: false, pointer: '/tenants/__proto__' });
    const inTenant = JSON.parse(
      `{"format":"${SNAPSHOT_FORMAT}","version":1,"seed":1,"tenants":{"${tenant}":{"__proto__":{}}}}`,
    );
    expect(readSnapshot(inTenant, collections)).toMatchObject({ ok: false });
  });

  it('round-trips a store: items, order, sequence, seed, and the memory charged', () => {
    const store = new ResourceStore({ collections, seed: 3, capacity: 10 });
    const items = store.tenant('k').collection('/pets');
    items.create({ sent: undefined, onTaken: 'replace', build: (id) => ({ id, name: 'Made' }) });
    items.replace('1', { id: 1, name: 'Changed' });
    const read = readSnapshot(JSON.parse(JSON.stringify(store.snapshot())), collections);
    expect(read.ok).toBe(true);
    const copy = new ResourceStore({ collections, seed: 1, capacity: 10 });
    copy.restore(read.ok ? read.snapshot : (undefined as never));
    expect(copy.seed).toBe(3);
    expect(copy.bytes).toBe(store.bytes);
    // A tenant nobody used since the restart is still saved by the next snapshot.
    expect(copy.snapshot()).toEqual(store.snapshot());
    const restored = copy.tenant('k').collection('/pets');
    expect(copy.bytes).toBe(store.bytes);
    expect(restored.list(10, [], 'oldest-first').map((record) => record.json)).toEqual(
      items.list(10, [], 'oldest-first').map((record) => record.json),
    );
    expect(restored.newKey()).toBe(3);
    expect(copy.tenant('other').collection('/pets').get('1')?.value.name).toBe('Seeded');
  });
});
