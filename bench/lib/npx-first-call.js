// Times the first `npx kennel --version` in a fresh clone, as a new user's first command after
// `npm ci`: a clone of HEAD with this checkout's node_modules linked in (npm ci's result, without
// its minutes), dist/ copied (what `prepare` wrote), and an empty npm cache, so npm's npx cache
// holds nothing yet. Then the same call again, warm.
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { median } from './report.js';

function timeNpx(clone, cache) {
  const binDir = path.join(clone, 'node_modules', '.bin');
  const started = performance.now();
  const result = spawnSync('npx', ['--cache', cache, '--offline', 'kennel', '--version'], {
    cwd: clone,
    encoding: 'utf8',
    env: { ...process.env, PATH: `${binDir}${path.delimiter}${process.env.PATH}` },
  });
  return { ms: performance.now() - started, code: result.status, output: `${result.stdout}${result.stderr}` };
}

/** `runs` fresh clones, each timed cold then warm; resolves {coldMedianMs, coldMs, warmMs} or {error}. */
export async function timeNpxFirstCall({ root, runs, log }) {
  const cold = [];
  const warm = [];
  for (let index = 0; index < runs; index += 1) {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'kennel-npx-'));
    try {
      const clone = path.join(dir, 'kennel');
      execFileSync('git', ['clone', '--quiet', root, clone]);
      symlinkSync(path.join(root, 'node_modules'), path.join(clone, 'node_modules'));
      cpSync(path.join(root, 'dist'), path.join(clone, 'dist'), { recursive: true });
      const cache = path.join(dir, 'npm-cache');
      const first = timeNpx(clone, cache);
      if (first.code !== 0) return { error: `npx kennel --version exited ${first.code}: ${first.output.slice(-1000)}` };
      const second = timeNpx(clone, cache);
      cold.push(first.ms);
      warm.push(second.ms);
      log(
        `npx kennel --version in a fresh clone ${index + 1}/${runs}: first ${Math.round(first.ms)} ms, then ${Math.round(second.ms)} ms`,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  return { coldMedianMs: median(cold), coldMs: cold, warmMedianMs: median(warm) };
}
