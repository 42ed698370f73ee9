#!/usr/bin/env node
// Moves source files into their rooms and rewrites everything that names them, from a mapping
// (scripts/moves.json: old path → new path). A script rather than a one-off commit because other
// branches edit the same files: whoever merges re-runs it on a newer main instead of resolving a
// rename conflict by hand. It is safe to run twice: an entry whose source is gone and whose target
// exists is done and skipped; import specifiers already right are left alone.
//
// Usage: node scripts/move-files.mjs [mapping.json] [--dry-run]
//
// What it rewrites, in src/, test/, bench/, scripts/, bin/, docs/ and the top-level docs and configs:
// - relative import specifiers (`from`, `import()`, `typeof import()`, side-effect `import`),
//   resolved against the importing file (`.js` naming a `.ts` source, `dist/` naming `src/`), and
//   recomputed for a file that moves itself;
// - repository paths in any text: `src/mock/x.ts`, `dist/mock/x.js`, and a string literal that is a
//   path under dist/ (`'mock/app.js'`, as bench helpers write them);
// - folder mentions (`src/mock/proxy` → `src/proxy`), the mapping's `folders`.
// What it only reports: files left at a room's root that the mapping neither moves nor keeps
// (`stays`), specifiers that resolve to no file, and mentions without `src/` (`mock/app.ts`).
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SELF = 'scripts/move-files.mjs';
const SCOPE = /^(src|test|bench|scripts|bin|docs)\/|^(ARCHITECTURE|README|CONTRIBUTING)\.md$|^eslint\.config\.js$/;
const EXTRA_SCOPE = new Set(['vitest.config.ts', 'package.json', 'Dockerfile', 'tsconfig.json', 'tsconfig.build.json']);
const TEXT = /\.(ts|mts|cts|js|mjs|cjs|md|json|ya?ml|sh)$|^Dockerfile$/;
const CODE = /\.(ts|mts|cts|js|mjs|cjs)$/;
const SPECIFIER = /(\bfrom\s+|\bimport\s*\(\s*|^\s*import\s+)(['"])(\.\.?\/[^'"\n]+)\2/gm;

const posix = path.posix;
const escape = (text) => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
const read = (file) => readFileSync(path.join(ROOT, file), 'utf8');
const exists = (file) => existsSync(path.join(ROOT, file));

function git(...args) {
  return execFileSync('git', args, { cwd: ROOT, encoding: 'utf8' });
}

/** Every entry of the mapping with what the tree says about it: to move, done, or in the way. */
function plan(files) {
  return Object.entries(files).map(([from, to]) => {
    const source = exists(from);
    const target = exists(to);
    const state = source && !target ? 'move' : !source && target ? 'done' : source ? 'conflict' : 'missing';
    return { from, to, state };
  });
}

/** The files whose text may name a moved file: tracked or new, not ignored, text. */
function scopedFiles(mappingFile) {
  return git('ls-files', '--cached', '--others', '--exclude-standard')
    .split('\n')
    .filter((file) => file && (SCOPE.test(file) || EXTRA_SCOPE.has(file)) && TEXT.test(posix.basename(file)))
    .filter((file) => file !== SELF && file !== mappingFile && exists(file));
}

/** Where an import's target lives after the moves: `.js` names a `.ts` source, `dist/` mirrors `src/`. */
function movedTarget(target, moves) {
  if (moves.has(target)) return moves.get(target);
  const source = target.replace(/\.js$/, '.ts');
  if (target.endsWith('.js') && moves.has(source)) return moves.get(source).replace(/\.ts$/, '.js');
  const built = target.match(/^dist\/(.+)\.js$/);
  const moved = built && moves.get(`src/${built[1]}.ts`);
  return moved ? moved.replace(/^src\//, 'dist/').replace(/\.ts$/, '.js') : undefined;
}

function relativeSpecifier(fromFile, target) {
  const relative = posix.relative(posix.dirname(fromFile), target);
  return relative.startsWith('.') ? relative : `./${relative}`;
}

/** Relative specifiers of a code file, rewritten for its own move and its targets' moves. */
function rewriteSpecifiers(file, text, moves) {
  const home = moves.get(file) ?? file;
  return text.replace(SPECIFIER, (whole, lead, quote, specifier) => {
    const target = posix.normalize(posix.join(posix.dirname(file), specifier));
    const moved = movedTarget(target, moves);
    if (!moved && home === file) return whole;
    return `${lead}${quote}${relativeSpecifier(home, moved ?? target)}${quote}`;
  });
}

/** Rewrites repository paths (`src/x.ts`, `dist/x.js`, `'x.js'` literals) and folder mentions. */
function pathRewriter(moves, folders) {
  const stems = new Map([...moves].map(([from, to]) => [from.slice(4, -3), to.slice(4, -3)]));
  const alternatives = [...stems.keys()]
    .sort((a, b) => b.length - a.length)
    .map(escape)
    .join('|');
  const paths = new RegExp(`(?<![\\w-])(src|dist)/(${alternatives})\\.(ts|js|d\\.ts|js\\.map)(?![\\w-])`, 'g');
  const literals = new RegExp(`(['"\`])(${alternatives})\\.js\\1`, 'g');
  const folderStems = Object.entries(folders).map(([from, to]) => [from.slice(4), to.slice(4)]);
  const folderPattern = (stem) => new RegExp(`(?<![\\w-])(src|dist)/${escape(stem)}(?![\\w-])`, 'g');
  return (text, isCode) => {
    let out = text.replace(paths, (_, root, stem, extension) => `${root}/${stems.get(stem)}.${extension}`);
    if (isCode) out = out.replace(literals, (_, quote, stem) => `${quote}${stems.get(stem)}.js${quote}`);
    for (const [from, to] of folderStems) out = out.replace(folderPattern(from), `$1/${to}`);
    return out;
  };
}

/** Every relative specifier that names no file, as `file:line specifier` (a test's probe text included). */
function danglingSpecifiers(files) {
  const found = [];
  for (const file of files.filter((name) => CODE.test(name) && !name.startsWith('docs/'))) {
    const text = read(file);
    for (const match of text.matchAll(SPECIFIER)) {
      const target = posix.normalize(posix.join(posix.dirname(file), match[3]));
      const candidates = [target, target.replace(/\.js$/, '.ts'), target.replace(/^dist\/(.+)\.js$/, 'src/$1.ts')];
      if (candidates.some(exists)) continue;
      const line = text.slice(0, match.index).split('\n').length;
      found.push(`${file}:${line} ${match[3]}`);
    }
  }
  return found;
}

/** Mentions of an old path without its `src/` (`mock/app.ts`): ambiguous, left for a human. */
function bareMentions(files, moves) {
  const stems = [...moves.keys()].map((from) => from.slice(4, -3));
  const pattern = new RegExp(`(?<![\\w/.-])(${stems.map(escape).join('|')})\\.(ts|js)(?![\\w-])`, 'g');
  const found = [];
  for (const file of files)
    read(file)
      .split('\n')
      .forEach((line, index) => {
        for (const match of line.matchAll(pattern)) found.push(`${file}:${index + 1} ${match[0]}`);
      });
  return found;
}

/** Files at a room's root (`src/mock/*.ts`) that the mapping neither moves nor keeps. */
function unmapped(mapping) {
  const known = new Set([...Object.keys(mapping.files), ...(mapping.stays ?? [])]);
  const tracked = git('ls-files', '--cached', '--others', '--exclude-standard', ...(mapping.rooms ?? [])).split('\n');
  return tracked.filter(
    (file) => file.endsWith('.ts') && (mapping.rooms ?? []).includes(posix.dirname(file)) && !known.has(file),
  );
}

function applyMoves(entries, rewritten) {
  const tracked = new Set(git('ls-files', '--cached').split('\n'));
  for (const { from, to } of entries.filter((entry) => entry.state === 'move')) {
    mkdirSync(path.join(ROOT, posix.dirname(to)), { recursive: true });
    // git mv refuses a file git does not know yet (a new file not added): that one is just renamed.
    if (tracked.has(from)) git('mv', from, to);
    else renameSync(path.join(ROOT, from), path.join(ROOT, to));
  }
  for (const [file, text] of rewritten) writeFileSync(path.join(ROOT, file), text);
}

/** Prettier over the rewritten files, when installed: a longer specifier may need a new line break. */
function formatted(files) {
  const prettier = path.join(ROOT, 'node_modules', '.bin', 'prettier');
  if (!existsSync(prettier) || files.length === 0) return;
  execFileSync(prettier, ['--write', '--log-level', 'warn', ...files], { cwd: ROOT, stdio: 'inherit' });
}

const say = (line) => process.stdout.write(`${line}\n`);

function section(title, lines) {
  if (lines.length === 0) return;
  say(`\n${title} (${lines.length}):`);
  for (const line of lines) say(`  ${line}`);
}

function main() {
  const args = process.argv.slice(2);
  const dryRun = args.includes('--dry-run');
  const mappingFile = args.find((arg) => !arg.startsWith('--')) ?? 'scripts/moves.json';
  const mapping = JSON.parse(read(mappingFile));
  const entries = plan(mapping.files);
  const moves = new Map(entries.filter((entry) => /move|done/.test(entry.state)).map(({ from, to }) => [from, to]));
  const clash = [...moves.values()].filter((to) => moves.has(to));
  if (clash.length > 0) throw new Error(`a target is also a source: ${clash.join(', ')}`);
  const rewritePaths = pathRewriter(moves, mapping.folders ?? {});
  const files = scopedFiles(mappingFile);
  const rewritten = new Map();
  for (const file of files) {
    const text = read(file);
    const isCode = CODE.test(file);
    const next = rewritePaths(isCode ? rewriteSpecifiers(file, text, moves) : text, isCode);
    const home = entries.find((entry) => entry.from === file && entry.state === 'move')?.to ?? file;
    if (next !== text || home !== file) rewritten.set(home, next);
  }
  const count = (state) => entries.filter((entry) => entry.state === state).length;
  say(`${count('move')} to move, ${count('done')} already moved, ${rewritten.size} files rewritten`);
  section('conflicts: source and target both exist, not moved', pick(entries, 'conflict'));
  section('missing: neither source nor target exists', pick(entries, 'missing'));
  if (dryRun) return;
  // Moves never add lines, so a dangling specifier keeps its line: only new ones are the moves' doing.
  const homeOf = (line) => line.replace(/^[^:]+/, (file) => moves.get(file) ?? file);
  const before = new Set(danglingSpecifiers(files).map((line) => homeOf(line).split(' ')[0]));
  applyMoves(entries, rewritten);
  formatted([...rewritten.keys()]);
  const after = scopedFiles(mappingFile);
  const dangling = danglingSpecifiers(after).filter((line) => !before.has(line.split(' ')[0]));
  section('specifiers the moves left naming no file', dangling);
  section('files at a room root the mapping neither moves nor keeps (add them to moves.json)', unmapped(mapping));
  section('mentions without src/ (check by hand)', bareMentions(after, moves));
  if (dangling.length > 0 || count('conflict') + count('missing') > 0) process.exitCode = 1;
}

function pick(entries, state) {
  return entries.filter((entry) => entry.state === state).map(({ from, to }) => `${from} → ${to}`);
}

main();
