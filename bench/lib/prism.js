// Prism 5 is a comparison target, never a dependency of the project: it is installed on demand
// into the git-ignored .bench/prism and reused from there afterwards.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { startChild } from './children.js';

const PACKAGE = '@stoplight/prism-cli';
const RANGE = '5';
const INSTALL_TIMEOUT_MS = 300_000;

function installed(prefix) {
  const manifestFile = path.join(prefix, 'node_modules', PACKAGE, 'package.json');
  if (!existsSync(manifestFile)) return undefined;
  try {
    const manifest = JSON.parse(readFileSync(manifestFile, 'utf8'));
    const binPath = typeof manifest.bin === 'string' ? manifest.bin : manifest.bin?.prism;
    if (!binPath || !manifest.version?.startsWith(`${RANGE}.`)) return undefined;
    const bin = path.join(path.dirname(manifestFile), binPath);
    return existsSync(bin) ? { bin, version: manifest.version } : undefined;
  } catch {
    return undefined;
  }
}

/** npm as this process's Node runs it (npm_execpath under `npm run`), else `npm` from PATH. */
function npmCommand() {
  const execPath = process.env.npm_execpath;
  if (execPath && /\.(c|m)?js$/.test(execPath) && existsSync(execPath))
    return { command: process.execPath, prefixArgs: [execPath] };
  return { command: 'npm', prefixArgs: [] };
}

/**
 * Returns {bin, version, installedNow} for Prism's CLI script under `<benchDir>/prism`, installing
 * it first when missing; or {skip: reason} when it cannot be installed.
 */
export async function ensurePrism(benchDir, log) {
  const prefix = path.join(benchDir, 'prism');
  const existing = installed(prefix);
  if (existing) return { ...existing, installedNow: false };
  log(
    `prism: not in ${path.relative(process.cwd(), prefix)}; installing ${PACKAGE}@${RANGE} there (once; not a project dependency)…`,
  );
  mkdirSync(prefix, { recursive: true });
  const manifest = path.join(prefix, 'package.json');
  // A package.json of its own keeps npm from walking up into the project.
  if (!existsSync(manifest))
    writeFileSync(
      manifest,
      `${JSON.stringify({ name: 'kennel-bench-prism', private: true, description: 'Prism for npm run bench; safe to delete' }, null, 2)}\n`,
    );
  const { command, prefixArgs } = npmCommand();
  const args = [
    ...prefixArgs,
    'install',
    '--prefix',
    prefix,
    `${PACKAGE}@${RANGE}`,
    '--no-save',
    '--ignore-scripts',
    '--no-audit',
    '--no-fund',
    '--loglevel',
    'error',
  ];
  const child = startChild('npm install prism', command, args, { cwd: prefix, env: { SCARF_ANALYTICS: 'false' } });
  const timer = setTimeout(() => child.stop(), INSTALL_TIMEOUT_MS);
  const { code, signal, error } = await child.exited;
  clearTimeout(timer);
  if (error || code !== 0) {
    const why = error ?? (signal ? `killed by ${signal}` : `exit code ${code}`);
    return {
      skip: `npm install ${PACKAGE}@${RANGE} failed (${why}): ${npmErrorSummary(child.output()) || 'no output'}`,
    };
  }
  const fresh = installed(prefix);
  if (!fresh) return { skip: `npm install ${PACKAGE}@${RANGE} finished but no Prism ${RANGE}.x CLI is in ${prefix}` };
  return { ...fresh, installedNow: true };
}

/** The first two meaningful `npm error` lines (code and message), without stack frames. */
function npmErrorSummary(text) {
  const errors = text
    .split('\n')
    .filter((line) => line.startsWith('npm error'))
    .map((line) => line.slice('npm error'.length).trim())
    .filter((line) => line !== '' && !line.startsWith('at ') && !/^(syscall|errno)\b/.test(line));
  const lines =
    errors.length > 0 ? errors : text.split('\n').filter((line) => line.trim() !== '' && !line.startsWith('npm warn'));
  return lines.slice(0, 2).join(' | ');
}
