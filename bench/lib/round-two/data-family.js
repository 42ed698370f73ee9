// `kennel serve --data` under two processes and kill -9: a second kennel on the same file must
// exit 2 naming the holder; writers create pets until the process is killed mid-stride, again and
// again; after each restart every pet acknowledged more than the save window before the kill is
// there, no id was handed out twice, and no temporary file is left behind.
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { apiClient, bearer } from '../api-client.js';
import { finding } from './raw.js';
import { spawnServe } from './serve-child.js';

const FAMILY = 'data';
/** The file is saved a second after a change: what was acknowledged before this may not be lost. */
const SAVE_WINDOW_MS = 1500;
const LITTER = /\.(\d+\.tmp|lock\.\d+\.new)$/;

/** Writers creating pets for `ms`, each in its own tenant; resolves the acknowledged ones. */
async function write(origin, keys, ms) {
  const client = apiClient(origin, { timeoutMs: 3000 });
  const acknowledged = [];
  const until = performance.now() + ms;
  await Promise.all(
    keys.map(async (key, lane) => {
      for (let index = 0; performance.now() < until; index += 1) {
        const name = `w${lane}-${index}-${Math.round(performance.now())}`;
        try {
          const answer = await client.post('/v1/pets', { name, categoryId: 1 }, bearer(key));
          if (answer.status === 201)
            acknowledged.push({ key, id: JSON.parse(answer.body).id, name, at: performance.now() });
        } catch {
          return; // killed under us
        }
      }
    }),
  );
  client.close();
  return acknowledged;
}

/** Every earlier acknowledged pet that must have survived: lost ones become findings. */
async function verify(origin, survivors, findings) {
  const client = apiClient(origin, { timeoutMs: 5000 });
  let lost = 0;
  for (const pet of survivors) {
    const answer = await client.get(`/v1/pets/${pet.id}`, bearer(pet.key)).catch(() => ({ status: 0, body: '' }));
    const name = answer.status === 200 ? JSON.parse(answer.body).name : undefined;
    if (name !== pet.name) {
      lost += 1;
      if (lost <= 5)
        findings.push(finding(FAMILY, 'lost', `pet ${pet.id}`, `acknowledged, then ${answer.status} ${name ?? ''}`));
    }
  }
  client.close();
  return lost;
}

/** A second kennel on the held file: it must exit 2 and name the first one's pid. */
async function secondProcess(bin, cwd, args, holder, findings) {
  const second = await spawnServe({ bin, cwd, args });
  if (second.origin) {
    await second.stop();
    findings.push(finding(FAMILY, 'two-holders', 'second kennel', 'a second kennel started on the same --data file'));
    return { code: 0 };
  }
  const named = second.output().includes(`pid ${holder.pid}`);
  if (second.exit.code !== 2 || !named)
    findings.push(finding(FAMILY, 'two-holders', 'exit', `exit ${second.exit.code}: ${second.output().slice(0, 200)}`));
  return { code: second.exit.code, namedHolder: named };
}

/** Records `acknowledged` (killed at `killedAt`): which must survive, and any id handed out twice. */
function record(acknowledged, killedAt, state, findings) {
  for (const pet of acknowledged) {
    pet.survives = pet.at < killedAt - SAVE_WINDOW_MS;
    const id = `${pet.key.slice(0, 4)}/${pet.id}`;
    if (state.ids.has(id)) {
      state.duplicates += 1;
      if (state.duplicates <= 5)
        findings.push(finding(FAMILY, 'id-twice', id, `given to ${state.ids.get(id)} and then to ${pet.name}`));
    }
    state.ids.set(id, pet.name);
    state.all.push(pet);
  }
}

/** Runs the family; resolves its figures and findings. */
export async function runDataFamily({ bin, cwd, profile, keys }) {
  const folder = mkdtempSync(path.join(tmpdir(), 'kennel-reliability-data-'));
  const file = path.join(folder, 'state.json');
  const args = ['--no-world', '--log-level', 'warn', '--data', file, '--max-pets', '1000000'];
  args.push('--max-store-bytes', '1gb', '--max-total-bytes', '4gb', ...keys.flatMap((key) => ['--api-key', key]));
  const findings = [];
  const state = { all: [], ids: new Map(), duplicates: 0, lost: 0, litter: 0, checked: 0 };
  let second;
  const start = async () => {
    const kennel = await spawnServe({ bin, cwd, args });
    if (!kennel.origin) throw new Error(`kennel --data did not start: ${kennel.output()}`);
    state.litter += readdirSync(folder).filter((name) => LITTER.test(name)).length;
    // The pets of the last cycle, and a sample of the older ones (checked after earlier restarts).
    const fresh = state.all.slice(state.checked);
    const older = state.all.slice(0, state.checked).filter((_pet, index) => index % 97 === 0);
    state.checked = state.all.length;
    state.lost += await verify(
      kennel.origin,
      [...fresh, ...older].filter((pet) => pet.survives),
      findings,
    );
    return kennel;
  };
  try {
    for (let cycle = 0; cycle < profile.cycles; cycle += 1) {
      // What a save killed half-way leaves behind: the next start must remove it.
      writeFileSync(`${file}.${9_000_000 + cycle}.tmp`, '{"half":');
      const kennel = await start();
      if (cycle === 0) second = await secondProcess(bin, cwd, args, kennel, findings);
      const [low, high] = profile.writeMs;
      const writing = write(kennel.origin, keys.slice(0, profile.writers), 60_000);
      await new Promise((resolve) => setTimeout(resolve, low + Math.floor(Math.random() * (high - low))));
      const killedAt = performance.now();
      await kennel.kill();
      record(await writing, killedAt, state, findings);
    }
    const last = await start();
    await last.stop();
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
  if (state.litter > 0)
    findings.push(finding(FAMILY, 'litter', 'tmp', `${state.litter} temporary files left after starts`));
  return {
    cycles: profile.cycles,
    writers: profile.writers,
    acknowledged: state.all.length,
    mustSurvive: state.all.filter((pet) => pet.survives).length,
    lost: state.lost,
    duplicateIds: state.duplicates,
    litter: state.litter,
    secondProcess: second,
    findings,
  };
}
