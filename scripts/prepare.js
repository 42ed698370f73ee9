// npm's `prepare`: compiles src/ to dist/ (npm run build), except when `npx kennel` runs in a
// checkout that is already built. npm 11 installs the checkout itself into its npx cache whenever
// the checkout's package.json has the bin being asked for, and runs `prepare` there: a full build
// (tens of seconds) before every first `npx kennel`, for a dist/ that `npm ci` has just written.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/**
 * Whether this `prepare` must build: not under npm exec (npx) of a checkout whose dist/ is there,
 * nor under npm pack / publish, whose `prepack` builds.
 */
export function buildNeeded(env, root = ROOT) {
  if (env.npm_command === 'pack' || env.npm_command === 'publish') return false;
  return !(env.npm_command === 'exec' && existsSync(path.join(root, 'dist', 'cli', 'main.js')));
}

if (process.argv[1] === fileURLToPath(import.meta.url) && buildNeeded(process.env)) {
  const result = spawnSync('npm', ['run', 'build'], { cwd: ROOT, stdio: 'inherit' });
  process.exit(result.status ?? 1);
}
