// Issue 18, item 4: `--data FILE` under two processes and kill -9. Spawned `kennel serve`s, real
// signals: one process holds a data file at a time, a killed save leaves no litter, and an id
// handed out is never handed out again, even when the save that would have recorded it never ran.
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { spawnKennel, type KennelProcess } from '../helpers/kennel-process.js';

const KEY = 'data-lock-secret-key';
const TICKETS = path.resolve(import.meta.dirname, '../fixtures/hardening/tickets-uuid.yaml');
const folder = mkdtempSync(path.join(tmpdir(), 'kennel-data-lock-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

const headers = { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' };
const serveArgs = (file: string, ...more: string[]) => ['--no-world', '--api-key', KEY, '--data', file, ...more];

async function createPets(origin: string, count: number): Promise<number[]> {
  const ids: number[] = [];
  for (let index = 0; index < count; index += 1) {
    const response = await fetch(`${origin}/v1/pets`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ name: `Pet ${index}`, categoryId: 1 }),
    });
    expect(response.status).toBe(201);
    ids.push(((await response.json()) as { id: number }).id);
  }
  return ids;
}

async function createTickets(origin: string, count: number): Promise<string[]> {
  const ids: string[] = [];
  for (let index = 0; index < count; index += 1) {
    const response = await fetch(`${origin}/api/tickets`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ title: `Ticket ${index}` }),
    });
    expect(response.status).toBe(201);
    ids.push(((await response.json()) as { id: string }).id);
  }
  return ids;
}

async function killed(process: KennelProcess): Promise<void> {
  await process.stop('SIGKILL');
}

describe('kennel serve --data holds its file alone', () => {
  it('a second kennel on the same file exits 2 naming the one that holds it; the first keeps every create', async () => {
    const file = path.join(folder, 'shared.json');
    const first = await spawnKennel(serveArgs(file));
    try {
      const before = await createPets(first.origin, 3);
      const second = runCli(['serve', '--port', '0', ...serveArgs(file)]);
      expect(await second.code).toBe(2);
      expect(second.stderr()).toMatch(
        new RegExp(`shared\\.json: .*in use by another kennel \\(pid ${first.child.pid}\\b`),
      );
      expect(second.stderr()).not.toMatch(/\n\s+at /);
      const after = await createPets(first.origin, 3);
      expect(after[0]).toBe(before.at(-1)! + 1);
    } finally {
      expect(await first.stop('SIGTERM')).toBe(0);
    }
    // A clean stop gives the file back.
    expect(existsSync(`${file}.lock`)).toBe(false);
    const third = await spawnKennel(serveArgs(file));
    await third.stop();
  }, 60_000);

  it('a kill -9 leaves the lock behind; the next kennel sees its holder is gone and takes the file over', async () => {
    const file = path.join(folder, 'crashed.json');
    const first = await spawnKennel(serveArgs(file));
    await createPets(first.origin, 1);
    await killed(first);
    expect(existsSync(`${file}.lock`)).toBe(true);
    const second = await spawnKennel(serveArgs(file));
    await second.stop();
  }, 60_000);

  it('removes the temporary files a killed save left behind, and only those', async () => {
    const file = path.join(folder, 'litter.json');
    const litter = [`${file}.4242.tmp`, `${file}.1.tmp`];
    const unrelated = [path.join(folder, 'other.json.4242.tmp'), `${file}.x.tmp`];
    for (const name of [...litter, ...unrelated]) writeFileSync(name, '{"half":');
    const running = await spawnKennel(serveArgs(file));
    try {
      const left = readdirSync(folder);
      for (const name of litter) expect(left).not.toContain(path.basename(name));
      for (const name of unrelated) expect(left).toContain(path.basename(name));
    } finally {
      await running.stop();
    }
  }, 30_000);
});

describe('kennel serve --data never hands out an id twice, even across kill -9', () => {
  it('integer ids: those acknowledged in the second before a kill are skipped after the restart', async () => {
    const file = path.join(folder, 'integers.json');
    const seen = new Set<number>();
    for (let round = 0; round < 3; round += 1) {
      const running = await spawnKennel(serveArgs(file));
      const ids = await createPets(running.origin, 15);
      // Killed at once: the save a second after these creates never runs.
      await killed(running);
      for (const id of ids) {
        expect(seen.has(id), `id ${id} handed out twice (round ${round})`).toBe(false);
        seen.add(id);
      }
      expect(Math.min(...ids)).toBeGreaterThan(Math.max(0, ...[...seen].filter((id) => !ids.includes(id))));
    }
  }, 90_000);

  it('UUID ids: none handed out before a kill comes back after the restart', async () => {
    const file = path.join(folder, 'uuids.json');
    const seen = new Set<string>();
    for (let round = 0; round < 3; round += 1) {
      const running = await spawnKennel(serveArgs(file, '--spec', TICKETS));
      const ids = await createTickets(running.origin, 10);
      await killed(running);
      for (const id of ids) {
        expect(seen.has(id), `id ${id} handed out twice (round ${round})`).toBe(false);
        seen.add(id);
      }
    }
  }, 90_000);

  it('a clean restart goes on with the next id, without a gap', async () => {
    const file = path.join(folder, 'clean.json');
    const first = await spawnKennel(serveArgs(file));
    const ids = await createPets(first.origin, 2);
    expect(await first.stop('SIGTERM')).toBe(0);
    const second = await spawnKennel(serveArgs(file));
    try {
      expect(await createPets(second.origin, 1)).toEqual([ids[1]! + 1]);
    } finally {
      await second.stop();
    }
  }, 60_000);
});
