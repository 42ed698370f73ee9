#!/usr/bin/env bash
# Performs the Dockerfile's steps without a Docker engine and proves that the result serves.
#
#   bash scripts/verify-docker.sh [--committed] [--keep]      (npm run verify:docker)
#
#   --committed  use the files of HEAD instead of the working tree (tracked + untracked, not ignored)
#   --keep       keep the temporary directory (also KEEP=1)
#
# What it does:
#   1. Copies the build context to a temporary directory: the repository's files (git ls-files -co
#      --exclude-standard, i.e. uncommitted work included) minus what .dockerignore excludes.
#      (A real `docker build .` also sends untracked git-ignored files that .dockerignore does not
#      exclude; the Dockerfile only COPYs named paths, so that difference cannot reach the image.)
#   2. Reads the Dockerfile (FROM, WORKDIR, ENV, COPY, RUN, USER, EXPOSE, HEALTHCHECK, ENTRYPOINT,
#      CMD) and performs every stage's COPY and RUN steps in its own directory, in order. Nothing is
#      restated here, so the script and the Dockerfile cannot drift: a step this script cannot
#      perform faithfully (wildcards, ADD, ARG, non-npm RUN, ...) is a FAIL, not a silent skip.
#   3. Starts the final stage's ENTRYPOINT + CMD in a clean environment (the stage's ENV only), runs
#      the HEALTHCHECK command exactly as written, calls the API with the development key, checks
#      that SIGTERM (docker stop) ends the server, and reports the production node_modules size.
#
# Differences from a real image, by necessity:
#   - RUN steps use this machine's npm, npm cache and ~/.npmrc instead of the image's.
#   - The image's node is Node 24 (node:24-slim); this machine's node is 20. The build stage's
#     `npm ci` installs the `node` devDependency, a Node 24 binary in node_modules/.bin/node, so
#     every later step (the runtime stage's npm ci, the server, the health check) runs with that
#     binary first on PATH, as `node` is in the image.
#   - Whether the container's process runs as non-root cannot be verified without a container: the
#     script checks that the final stage says `USER node`. As an approximation, when the script
#     runs as root it starts the server and the health check as uid/gid 65534 (nobody) over
#     root-owned files, which shows that the server needs no write access to its directory.
#   - The port: the server and the health check get KENNEL_PORT=<a free port> (the image uses its
#     default, 4010); the HEALTHCHECK reads KENNEL_PORT, so its command runs unchanged.
set -euo pipefail
umask 022

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
SOURCE=worktree
KEEP=${KEEP:-0}
for arg in "$@"; do
  case $arg in
    --committed) SOURCE=committed ;;
    --keep) KEEP=1 ;;
    -h | --help) sed -n '2,9p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "verify-docker: unknown argument: $arg (try --help)" >&2; exit 2 ;;
  esac
done

FAILURES=0
pass() { printf 'PASS  %s\n' "$*"; }
fail() { printf 'FAIL  %s\n' "$*"; FAILURES=$((FAILURES + 1)); }
info() { printf '      %s\n' "$*"; }
skip() { printf 'SKIP  %s\n' "$*"; }
section() { printf '\n== %s\n' "$*"; }
die() { fail "$*"; exit 1; }
check() { # check DESCRIPTION COMMAND...: PASS or FAIL on the command's exit status
  local what=$1; shift
  if "$@"; then pass "$what"; else fail "$what"; fi
}

WORK=$(mktemp -d "${TMPDIR:-/tmp}/kennel-verify-docker.XXXXXX")
chmod 755 "$WORK"
SERVER_PID=
cleanup() {
  local status=$?
  if [[ -n $SERVER_PID ]] && kill -0 "$SERVER_PID" 2>/dev/null; then
    kill "$SERVER_PID" 2>/dev/null || true
    wait "$SERVER_PID" 2>/dev/null || true
  fi
  if [[ $KEEP == 1 ]]; then echo "kept $WORK"; else rm -rf "$WORK"; fi
  if ((status != 0 || FAILURES > 0)); then
    printf '\nverify-docker: FAILED (%d failure(s))\n' "$((FAILURES > 0 ? FAILURES : 1))"
    exit 1
  fi
  printf '\nverify-docker: all checks passed\n'
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# Environment of RUN steps: nothing from this shell but what npm needs to reach its registry.
# (Not npm_config_*: `npm run` exports dozens of them, and PATH without node_modules/.bin entries,
# which `npm run` prepends, so that the build stage really starts from the machine's npm and node.)
RUN_ENV=("HOME=$HOME")
for var in TMPDIR http_proxy https_proxy no_proxy HTTP_PROXY HTTPS_PROXY NO_PROXY \
  SSL_CERT_FILE SSL_CERT_DIR NODE_EXTRA_CA_CERTS npm_config_registry NPM_CONFIG_REGISTRY; do
  if [[ -n ${!var:-} ]]; then RUN_ENV+=("$var=${!var}"); fi
done
MACHINE_PATH=$(tr ':' '\n' <<<"$PATH" | { grep -v 'node_modules/\.bin$' || true; } | paste -sd: -)
IMAGE_BIN=$WORK/image-bin # gets `node` -> a Node <image major> binary once the build stage made one
IMAGE_NODE=
mkdir -p "$IMAGE_BIN" "$WORK/logs"

# --- 1. build context ---------------------------------------------------------------------------
section "build context ($SOURCE)"
SRC=$ROOT
if [[ $SOURCE == committed ]]; then
  SRC=$WORK/head
  mkdir -p "$SRC"
  git -C "$ROOT" archive --format=tar HEAD | tar -x -C "$SRC"
  git -C "$ROOT" ls-tree -r -z --name-only HEAD >"$WORK/files"
else
  git -C "$ROOT" ls-files -z -co --exclude-standard >"$WORK/files"
fi
[[ -f $SRC/Dockerfile ]] || die "no Dockerfile in $SOURCE files"

# .dockerignore, with Docker's rules: patterns anchored at the context root (after a leading / is
# dropped), * and ? stay within one path segment, ** spans segments, a pattern that matches a
# directory excludes everything under it, ! re-includes, and the last matching pattern wins.
cat >"$WORK/dockerignore.mjs" <<'JS'
import { existsSync, lstatSync, readFileSync } from 'node:fs';
import path from 'node:path';
const [root, ignoreFile] = process.argv.slice(2);
const escape = (c) => c.replace(/[.+^${}()|\\/]/g, '\\$&');
function toRegExp(pattern) {
  let source = '';
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '*' && pattern[i + 1] === '*') {
      i++;
      if (pattern[i + 1] === '/') { i++; source += '(?:.*/)?'; } else source += '.*';
    } else if (c === '*') source += '[^/]*';
    else if (c === '?') source += '[^/]';
    else if (c === '[' && pattern.indexOf(']', i) > i) {
      const end = pattern.indexOf(']', i);
      source += `[${pattern.slice(i + 1, end).replace(/^!/, '^').replace(/\\/g, '\\\\')}]`;
      i = end;
    } else if (c === '\\' && i + 1 < pattern.length) source += escape(pattern[++i]);
    else source += escape(c);
  }
  return new RegExp(`^${source}$`);
}
const rules = (existsSync(ignoreFile) ? readFileSync(ignoreFile, 'utf8') : '')
  .split(/\r?\n/).map((line) => line.trim()).filter((line) => line !== '' && !line.startsWith('#'))
  .map((line) => {
    const negate = line.startsWith('!');
    const pattern = path.posix.normalize((negate ? line.slice(1) : line).trim()).replace(/^\/+/, '').replace(/\/+$/, '');
    return { negate, re: toRegExp(pattern) };
  });
function excluded(file) {
  const parts = file.split('/');
  let result = false;
  for (const { negate, re } of rules) {
    for (let n = 1; n <= parts.length; n++) {
      if (re.test(parts.slice(0, n).join('/'))) { result = !negate; break; }
    }
  }
  return result;
}
const files = readFileSync(0, 'utf8').split('\0').filter((file) => file !== '');
let kept = 0;
let ignored = 0;
for (const file of files) {
  try { lstatSync(path.join(root, file)); } catch { continue; } // deleted in the working tree
  if (excluded(file)) { ignored++; continue; }
  kept++;
  process.stdout.write(`${file}\0`);
}
process.stderr.write(`${kept} files, ${ignored} excluded by .dockerignore\n`);
JS
CONTEXT=$WORK/context
mkdir -p "$CONTEXT"
node "$WORK/dockerignore.mjs" "$SRC" "$SRC/.dockerignore" <"$WORK/files" >"$WORK/context-files" 2>"$WORK/context-count"
tar -C "$SRC" --null --verbatim-files-from -T "$WORK/context-files" -cf - | tar -C "$CONTEXT" -xf -
pass "build context: $(cat "$WORK/context-count")"

# --- 2. the Dockerfile's steps ------------------------------------------------------------------
# The parser prints one record per instruction, NUL-separated: KIND, argument count, arguments.
cat >"$WORK/dockerfile.mjs" <<'JS'
import { readFileSync } from 'node:fs';
const out = [];
const emit = (kind, ...args) => out.push(kind, String(args.length), ...args.map(String));
const words = (text) => { // shell-like words: whitespace-separated, '' and "" quoting, \ escapes
  const result = [];
  let word = null;
  let quote = null;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quote) {
      if (c === quote) quote = null;
      else if (c === '\\' && quote === '"' && i + 1 < text.length) word += text[++i];
      else word += c;
    } else if (/\s/.test(c)) {
      if (word !== null) result.push(word);
      word = null;
    } else {
      word ??= '';
      if (c === '"' || c === "'") quote = c;
      else if (c === '\\' && i + 1 < text.length) word += text[++i];
      else word += c;
    }
  }
  if (word !== null) result.push(word);
  return result;
};
const jsonArray = (text) => {
  if (!text.startsWith('[')) return null;
  try {
    const value = JSON.parse(text);
    return Array.isArray(value) && value.every((item) => typeof item === 'string') ? value : null;
  } catch { return null; }
};
const flags = (text) => {
  const found = {};
  let rest = text;
  for (let m; (m = /^--([a-z-]+)(?:=(\S*))?\s*/.exec(rest)); rest = rest.slice(m[0].length)) found[m[1]] = m[2] ?? 'true';
  return [found, rest.trim()];
};
const seconds = (duration) => { // Go durations: 5s, 1m30s, 500ms
  let total = 0;
  const rest = duration.replace(/(\d+(?:\.\d+)?)(ms|s|m|h)/g, (_, n, unit) => { total += Number(n) * { ms: 0.001, s: 1, m: 60, h: 3600 }[unit]; return ''; });
  return rest === '' ? total : NaN;
};

// Logical lines: comment lines are dropped (also inside continuations, as Docker does), `\` joins.
const logical = [];
let buffer = null;
let start = 0;
readFileSync(process.argv[2], 'utf8').split(/\r?\n/).forEach((raw, index) => {
  const trimmed = raw.trim();
  if (trimmed.startsWith('#') || trimmed === '') return;
  if (buffer === null) { buffer = ''; start = index + 1; }
  if (/\\\s*$/.test(raw)) { buffer += raw.replace(/\\\s*$/, ' '); return; }
  logical.push([start, (buffer + raw).trim()]);
  buffer = null;
});
if (buffer !== null) logical.push([start, buffer.trim()]);

for (const [line, text] of logical) {
  const [, keyword, rawArgs] = /^(\S+)\s*([\s\S]*)$/.exec(text);
  const instruction = keyword.toUpperCase();
  const bad = (why) => emit('ERROR', `Dockerfile line ${line}: ${instruction}: ${why}`);
  const [flag, rest] = flags(rawArgs);
  switch (instruction) {
    case 'FROM': {
      const w = words(rest);
      if (w.length === 1) emit('FROM', w[0], '');
      else if (w.length === 3 && w[1].toUpperCase() === 'AS') emit('FROM', w[0], w[2]);
      else bad('expected FROM image [AS name]');
      break;
    }
    case 'WORKDIR':
      if (rest.includes('$')) bad('variables are not supported here');
      else emit('WORKDIR', rest);
      break;
    case 'ENV': {
      const w = words(rest);
      if (w.length > 0 && !w[0].includes('=')) { emit('ENV', w[0], w.slice(1).join(' ')); break; }
      if (w.some((pair) => pair.indexOf('=') < 1)) { bad('expected KEY=value pairs'); break; }
      emit('ENV', ...w.flatMap((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)]));
      break;
    }
    case 'COPY': {
      const unknown = Object.keys(flag).filter((name) => !['from', 'chown', 'chmod', 'link'].includes(name));
      const paths = jsonArray(rest) ?? words(rest);
      if (unknown.length > 0) bad(`--${unknown[0]} is not supported here`);
      else if (paths.length < 2) bad('expected sources and a destination');
      else if (paths.some((p) => /[*?[$]/.test(p))) bad('wildcards and variables are not supported here: name the paths');
      else emit('COPY', flag.from ?? '', ...paths);
      break;
    }
    case 'RUN':
      if (jsonArray(rest)) bad('exec form is not supported here');
      else emit('RUN', rest);
      break;
    case 'USER':
    case 'STOPSIGNAL':
    case 'LABEL':
      emit(instruction, rest);
      break;
    case 'EXPOSE':
      emit('EXPOSE', ...words(rest));
      break;
    case 'HEALTHCHECK': {
      const m = /^(CMD|NONE)\b\s*([\s\S]*)$/i.exec(rest);
      if (!m) { bad('expected CMD or NONE'); break; }
      if (m[1].toUpperCase() === 'NONE') { emit('HEALTHCHECK', 'NONE'); break; }
      const timeout = seconds(flag.timeout ?? '30s');
      const exec = jsonArray(m[2].trim());
      if (Number.isNaN(timeout)) bad(`cannot read --timeout=${flag.timeout}`);
      else emit('HEALTHCHECK', timeout, ...(exec ? ['exec', ...exec] : ['shell', m[2].trim()]));
      break;
    }
    case 'ENTRYPOINT':
    case 'CMD': {
      const exec = jsonArray(rawArgs.trim());
      emit(instruction, ...(exec ? ['exec', ...exec] : ['shell', rawArgs.trim()]));
      break;
    }
    default:
      bad('not performed by scripts/verify-docker.sh (extend it to cover this instruction)');
  }
}
process.stdout.write(out.map((item) => `${item}\0`).join(''));
JS
section "Dockerfile steps"
DOCKERFILE=$SRC/Dockerfile
node "$WORK/dockerfile.mjs" "$DOCKERFILE" >"$WORK/steps" || die "cannot parse $DOCKERFILE"
mapfile -d '' REC <"$WORK/steps"

# The image's Node major, from package.json engines (">=24"): every FROM must be node:<major>-slim.
NODE_MAJOR=$(node -p 'String(require(process.argv[1]).engines?.node ?? "").match(/^>=?\s*(\d+)/)?.[1] ?? ""' "$CONTEXT/package.json")
[[ -n $NODE_MAJOR ]] || die "cannot read the Node major from package.json engines.node"
BASE_IMAGE=node:$NODE_MAJOR-slim

declare -A STAGE_DIRS=() STAGE_WORKDIRS=()
STAGE_COUNT=0
STAGE='' STAGE_DIR='' WORKDIR='' STEPS=0
STAGE_ENV=() STAGE_RUNS=() STAGE_USER='' STAGE_EXPOSE=() HEALTH=() ENTRY=() CMDV=() FROM_STAGES=()

clean_rel() { # clean_rel PATH: relative, normalised, no `..`; "" for the root
  local p=$1
  p=${p#/}
  while [[ $p == ./* ]]; do p=${p#./}; done
  while [[ $p == */ ]]; do p=${p%/}; done
  [[ $p == . ]] && p=
  # (Runs inside $(...): the message goes to stderr, and set -e ends the script.)
  [[ /$p/ != */../* ]] || { echo "FAIL  COPY: '..' is not supported here: $1" >&2; exit 1; }
  printf '%s' "$p"
}

in_stage() { # in_stage DIR WORKDIR PATH: where PATH (absolute, or relative to WORKDIR) lives on disk
  local dir=$1 workdir=$2 p=$3 rel
  if [[ $p == /* ]]; then
    [[ $p == "$workdir" || $p == "$workdir"/ || $p == "$workdir"/* ]] ||
      { echo "FAIL  COPY: $p is outside WORKDIR $workdir (not supported here)" >&2; exit 1; }
    rel=$(clean_rel "${p#"$workdir"}")
  else
    rel=$(clean_rel "$p")
  fi
  printf '%s' "$dir${rel:+/$rel}"
}

copy_step() { # copy_step FROM SOURCE... DEST, with COPY's semantics
  local from=$1; shift
  local dest=${!#} sources=("${@:1:$#-1}") target source sp into=0
  [[ -n $WORKDIR ]] || die "COPY before WORKDIR (not supported here)"
  target=$(in_stage "$STAGE_DIR" "$WORKDIR" "$dest")
  if [[ $dest == */ || ${#sources[@]} -gt 1 ]]; then into=1; fi
  for source in "${sources[@]}"; do
    if [[ -z $from ]]; then
      sp=$CONTEXT/$(clean_rel "$source")
    else
      [[ -n ${STAGE_DIRS[$from]:-} ]] || die "COPY --from=$from: no such stage"
      FROM_STAGES+=("$from")
      # --from paths are relative to the other stage's root, not to its WORKDIR.
      sp=$(in_stage "${STAGE_DIRS[$from]}" "${STAGE_WORKDIRS[$from]}" "/${source#/}")
    fi
    [[ -e $sp ]] || die "COPY ${from:+--from=$from }$source: not found (docker build would fail here)"
    if [[ -d $sp ]]; then
      mkdir -p "$target" && cp -a "$sp/." "$target/"
    elif ((into)) || [[ -d $target ]]; then
      mkdir -p "$target" && cp -a "$sp" "$target/"
    else
      mkdir -p "$(dirname "$target")" && cp -a "$sp" "$target"
    fi
  done
  info "COPY ${from:+--from=$from }$*"
}

trim() { local s=$1; s=${s#"${s%%[![:space:]]*}"}; printf '%s' "${s%"${s##*[![:space:]]}"}"; }

run_step() { # run_step COMMAND: `npm ...` commands joined by &&, run with sh -c in the stage's WORKDIR
  local command=$1 rest=$1 part joined log started path
  local -a parts=() kept=()
  while [[ $rest == *'&&'* ]]; do parts+=("${rest%%&&*}"); rest=${rest#*&&}; done
  parts+=("$rest")
  for part in "${parts[@]}"; do
    part=$(trim "$part")
    [[ $part =~ ^npm(\ [A-Za-z0-9@=:,./_-]+)+$ ]] ||
      die "RUN $command: only npm commands joined by && are performed here ('$part')"
    if [[ $part == 'npm cache clean --force' ]]; then
      info "RUN … $part: not performed (it would empty this machine's npm cache; it only trims the image)"
      continue
    fi
    kept+=("$part")
  done
  ((${#kept[@]} > 0)) || return 0
  joined=$(printf '%s && ' "${kept[@]}"); joined=${joined% && }
  [[ -n $WORKDIR ]] || die "RUN before WORKDIR (not supported here)"
  log=$WORK/logs/$STAGE-run-$STEPS.log
  started=$SECONDS
  path=$MACHINE_PATH
  if [[ -n $IMAGE_NODE ]]; then path=$IMAGE_BIN:$MACHINE_PATH; fi
  if (cd "$STAGE_DIR" && env -i "${RUN_ENV[@]}" "PATH=$path" "${STAGE_ENV[@]}" sh -c "$joined") >"$log" 2>&1 </dev/null; then
    info "RUN $joined  ($((SECONDS - started))s, node $(PATH=$path node -v))"
  else
    tail -n 40 "$log" | sed 's/^/      | /'
    die "RUN $joined (stage $STAGE) failed; log above"
  fi
}

end_stage() {
  [[ -n $STAGE ]] || return 0
  pass "stage $STAGE: $STEPS COPY/RUN steps performed"
  # The first stage that installs the `node` devDependency supplies the image's `node` from now on.
  if [[ -z $IMAGE_NODE && -x $STAGE_DIR/node_modules/.bin/node ]]; then
    local version
    version=$("$STAGE_DIR/node_modules/.bin/node" -v)
    if [[ $version == "v$NODE_MAJOR".* ]]; then
      ln -s "$(readlink -f "$STAGE_DIR/node_modules/.bin/node")" "$IMAGE_BIN/node"
      IMAGE_NODE=$IMAGE_BIN/node
      info "from now on \`node\` is $version (stage $STAGE's node_modules/.bin/node), as in $BASE_IMAGE"
    fi
  fi
}

i=0
while ((i < ${#REC[@]})); do
  kind=${REC[i]} count=${REC[i + 1]}
  args=("${REC[@]:i+2:count}")
  i=$((i + 2 + count))
  case $kind in
    ERROR) die "${args[0]}" ;;
    FROM)
      end_stage
      STAGE=${args[1]:-$STAGE_COUNT}
      STAGE_DIR=$WORK/stage-$STAGE
      mkdir -p "$STAGE_DIR"
      STAGE_DIRS[$STAGE]=$STAGE_DIR STAGE_DIRS[$STAGE_COUNT]=$STAGE_DIR
      STAGE_COUNT=$((STAGE_COUNT + 1))
      WORKDIR='' STEPS=0 STAGE_ENV=() STAGE_RUNS=() STAGE_USER='' STAGE_EXPOSE=() HEALTH=() ENTRY=() CMDV=() FROM_STAGES=()
      printf -- '-- stage %s (FROM %s)\n' "$STAGE" "${args[0]}"
      [[ ${args[0]} == "$BASE_IMAGE" ]] || fail "stage $STAGE: FROM ${args[0]}, expected $BASE_IMAGE (package.json engines.node)"
      ;;
    WORKDIR)
      [[ -z $WORKDIR || $WORKDIR == "${args[0]%/}" ]] || die "a second WORKDIR in stage $STAGE (not supported here)"
      WORKDIR=${args[0]%/}
      STAGE_WORKDIRS[$STAGE]=$WORKDIR STAGE_WORKDIRS[$((STAGE_COUNT - 1))]=$WORKDIR
      ;;
    ENV) for ((k = 0; k < count; k += 2)); do STAGE_ENV+=("${args[k]}=${args[k + 1]}"); done ;;
    COPY) copy_step "${args[@]}"; STEPS=$((STEPS + 1)) ;;
    RUN) run_step "${args[0]}"; STAGE_RUNS+=("${args[0]}"); STEPS=$((STEPS + 1)) ;;
    USER) STAGE_USER=${args[0]} ;;
    EXPOSE) STAGE_EXPOSE+=("${args[@]}") ;;
    HEALTHCHECK) HEALTH=("${args[@]}") ;;
    ENTRYPOINT) ENTRY=("${args[@]}") ;;
    CMD) CMDV=("${args[@]}") ;;
    LABEL | STOPSIGNAL) info "$kind ${args[0]}" ;;
  esac
done
end_stage
[[ -n $STAGE ]] || die "the Dockerfile has no FROM"
RUNTIME=$STAGE_DIR

# --- build stage ----------------------------------------------------------------------------------
mapfile -t BUILD_STAGES < <(printf '%s\n' "${FROM_STAGES[@]}" | sed '/^$/d' | sort -u)
((${#BUILD_STAGES[@]} == 1)) || die "the final stage should COPY --from exactly one stage (found: ${BUILD_STAGES[*]:-none})"
BUILD=${STAGE_DIRS[${BUILD_STAGES[0]}]}
section "build stage (${BUILD_STAGES[0]})"
check "dist/cli/main.js was built (npm ci ran prepare: tsc)" test -f "$BUILD/dist/cli/main.js"
info "build node_modules: $(du -sh "$BUILD/node_modules" | cut -f1) (discarded with the stage)"

# --- runtime stage: contents ----------------------------------------------------------------------
section "runtime stage ($STAGE)"
[[ -n $IMAGE_NODE ]] || die "no Node $NODE_MAJOR binary to run the runtime stage with (the build stage installs the \`node\` devDependency)"
has_line() { # has_line LINE-REGEX ITEM...: one of the items matches
  local re=$1; shift
  printf '%s\n' "$@" | grep -Eq -- "$re"
}
check "runtime stage installs with npm ci --omit=dev --ignore-scripts" \
  has_line '^npm ci --omit=dev --ignore-scripts( |$)' "${STAGE_RUNS[@]}"
# package.json "files" is the package's runtime payload: every entry that exists must be in the image.
mapfile -t PAYLOAD < <(node -p 'require(process.argv[1]).files.join("\n")' "$CONTEXT/package.json")
for entry in "${PAYLOAD[@]}"; do
  if [[ -e $RUNTIME/$entry ]]; then
    pass "runtime has $entry/ (package.json files)"
  elif [[ -e $CONTEXT/$entry || -e $BUILD/$entry ]]; then
    fail "runtime lacks $entry/ (in package.json files and in the repository): COPY it into the runtime stage"
  else
    info "package.json files lists $entry, which the repository does not have yet: nothing to copy"
  fi
done
DEV_ONLY=$(cd "$RUNTIME" && node -e '
  const fs = require("node:fs");
  const lock = require("./package-lock.json");
  const dev = Object.entries(lock.packages).filter(([key, p]) => key !== "" && p.dev && fs.existsSync(key));
  console.log(dev.map(([key]) => key).join(" "));')
check "runtime node_modules has no devDependencies${DEV_ONLY:+ (found: $DEV_ONLY)}" test -z "$DEV_ONLY"
check "runtime has no node_modules/.bin/node (the Node 24 devDependency)" test ! -e "$RUNTIME/node_modules/.bin/node"
PROD_PACKAGES=$(node -p 'Object.entries(require(process.argv[1]).packages).filter(([k, p]) => k !== "" && !p.dev).length' "$RUNTIME/package-lock.json")
pass "production node_modules: $(du -sh "$RUNTIME/node_modules" | cut -f1), $PROD_PACKAGES packages; whole /app: $(du -sh "$RUNTIME" | cut -f1)"
check "ENV NODE_ENV=production" has_line '^NODE_ENV=production$' "${STAGE_ENV[@]}"
check "ENV SCARF_ANALYTICS=false" has_line '^SCARF_ANALYTICS=false$' "${STAGE_ENV[@]}"
# Cannot be verified without a container: that the process really runs as a non-root user.
check "final stage runs as USER node (not verifiable without a container; see the uid check below)" test "$STAGE_USER" = node

# --- runtime stage: ENTRYPOINT + CMD and HEALTHCHECK -------------------------------------------------
section "serve: ENTRYPOINT + CMD, HEALTHCHECK"
[[ ${ENTRY[0]:-} == exec ]] || die "ENTRYPOINT must be in exec form (JSON array), so that node is PID 1 and gets SIGTERM"
[[ ${CMDV[0]:-exec} == exec ]] || die "CMD must be in exec form (JSON array) after an exec-form ENTRYPOINT"
[[ ${HEALTH[0]:-NONE} != NONE ]] || die "the final stage has no HEALTHCHECK"
ARGV=("${ENTRY[@]:1}" "${CMDV[@]:1}")
HEALTH_TIMEOUT=${HEALTH[0]}
HEALTH_FORM=${HEALTH[1]}
HEALTH_CMD=("${HEALTH[@]:2}")
[[ $HEALTH_FORM == exec ]] || HEALTH_CMD=(/bin/sh -c "${HEALTH_CMD[0]}")
info "ENTRYPOINT + CMD: ${ARGV[*]}"
info "HEALTHCHECK (timeout ${HEALTH_TIMEOUT}s): ${HEALTH_CMD[*]}"

EXPOSED_PORT=${STAGE_EXPOSE[0]:-}
EXPOSED_PORT=${EXPOSED_PORT%/tcp}
check "EXPOSE $EXPOSED_PORT" test -n "$EXPOSED_PORT"
# shellcheck disable=SC2016 # $1 and $2 belong to the inner bash
check "HEALTHCHECK probes /__kennel/health with fetch, on the EXPOSEd port by default" \
  bash -c '[[ $1 == *fetch\(* && $1 == */__kennel/health* && $1 == *"$2"* ]]' _ "${HEALTH_CMD[*]}" "$EXPOSED_PORT"
# The command run below is the parsed one; prove the parse: each argument, JSON-encoded, is in the file.
check "the health command run here appears verbatim in the Dockerfile" node -e '
  const text = require("node:fs").readFileSync(process.argv[1], "utf8");
  process.exit(process.argv.slice(2).every((arg) => text.includes(JSON.stringify(arg))) ? 0 : 1);' \
  "$DOCKERFILE" "${HEALTH[@]:2}"

# The image's environment: the stage's ENV only (plus PATH and HOME), never this shell's.
IMAGE_PATH=$IMAGE_BIN:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
AS_USER=()
if [[ $(id -u) == 0 ]] && command -v setpriv >/dev/null; then
  AS_USER=(setpriv --reuid=65534 --regid=65534 --clear-groups)
  mkdir -p "$WORK/home" && chown 65534:65534 "$WORK/home"
  IMAGE_HOME=$WORK/home
  info "running as root: the server and the health check run as uid 65534 over root-owned files"
else
  IMAGE_HOME=$HOME
fi
image_run() { (cd "$RUNTIME" && "${AS_USER[@]}" env -i "PATH=$IMAGE_PATH" "HOME=$IMAGE_HOME" "${STAGE_ENV[@]}" "$@"); }

HELP=$(image_run "${ENTRY[@]:1}" serve --help 2>&1 | tr -s ' \n' '  ' || true)
DEFAULT_PORT=$(grep -Eo 'KENNEL_PORT; default [0-9]+' <<<"$HELP" | grep -Eo '[0-9]+$' || true)
check "EXPOSE $EXPOSED_PORT is kennel serve's default port (${DEFAULT_PORT:-unknown})" test "$DEFAULT_PORT" = "$EXPOSED_PORT"

free_port() { "$IMAGE_NODE" -e 'const s = require("node:net").createServer().listen(0, "0.0.0.0", () => { console.log(s.address().port); s.close(); })'; }
# shellcheck disable=SC2016 # JavaScript template literal
http_get() { # http_get URL [BEARER]: prints "STATUS BODY-PREFIX"
  "$IMAGE_NODE" -e '
    const [url, key] = process.argv.slice(1);
    fetch(url, { headers: key ? { authorization: `Bearer ${key}` } : {}, signal: AbortSignal.timeout(5000) })
      .then(async (r) => console.log(r.status, (await r.text()).replace(/\s+/g, " ").slice(0, 90)), (e) => console.log(0, e.cause?.code ?? e.message));' "$1" "${2:-}"
}

start_server() { # start_server LOG ARG...: runs ARG... as the container would, on KENNEL_PORT=$PORT
  SERVER_LOG=$1; shift
  (cd "$RUNTIME" && exec "${AS_USER[@]}" env -i "PATH=$IMAGE_PATH" "HOME=$IMAGE_HOME" "${STAGE_ENV[@]}" "KENNEL_PORT=$PORT" "$@") >"$SERVER_LOG" 2>&1 </dev/null &
  SERVER_PID=$!
  for ((tries = 0; tries < 150; tries++)); do
    grep -q '^kennel: serving' "$SERVER_LOG" && break
    kill -0 "$SERVER_PID" 2>/dev/null || break
    sleep 0.2
  done
  if ! grep -q '^kennel: serving' "$SERVER_LOG"; then
    sed 's/^/      | /' "$SERVER_LOG"
    die "the server did not start: KENNEL_PORT=$PORT $* (log above)"
  fi
  pass "server started: KENNEL_PORT=$PORT $* (pid $SERVER_PID)"
  { grep -v '^{' "$SERVER_LOG" || true; } | sed 's/^/      | /'
}

stop_server() { # stop_server: SIGTERM, as docker stop sends to PID 1 (node), which it kills after 10 s
  kill -TERM "$SERVER_PID"
  for ((tries = 0; tries < 100; tries++)); do
    kill -0 "$SERVER_PID" 2>/dev/null || break
    sleep 0.1
  done
  STOP_STATUS=0
  if kill -0 "$SERVER_PID" 2>/dev/null; then
    STOP_STATUS=timeout
  else
    wait "$SERVER_PID" || STOP_STATUS=$?
    SERVER_PID=
  fi
}

HOST_IP=$( (hostname -I 2>/dev/null || true) | tr ' ' '\n' | grep -E '^[0-9.]+$' | grep -v '^127\.' | head -n 1 || true)
check_all_interfaces() { # check_all_interfaces WHAT: the server is bound to 0.0.0.0, as docker run -p needs
  check "$1: the banner shows 0.0.0.0:$PORT" grep -q "^  API      http://0\.0\.0\.0:$PORT/" "$SERVER_LOG"
  if [[ -n $HOST_IP ]]; then
    RESPONSE=$(http_get "http://$HOST_IP:$PORT/__kennel/health")
    check "$1: health answers on $HOST_IP too: ${RESPONSE%% *}" test "${RESPONSE%% *}" = 200
  else
    skip "$1: no non-loopback IPv4 address to check the 0.0.0.0 binding from"
  fi
}

PORT=$(free_port)
start_server "$WORK/logs/server.log" "${ARGV[@]}"
SERVER_UID=$(awk '/^Uid:/ { print $2 }' "/proc/$SERVER_PID/status" 2>/dev/null || echo '?')
if ((${#AS_USER[@]} > 0)); then
  check "server process runs as uid $SERVER_UID, not root (approximation of USER node)" test "$SERVER_UID" != 0
else
  skip "server uid: this script is not root, so it cannot switch users; USER node checked above"
fi

# The exact HEALTHCHECK command, with Docker's timeout; KENNEL_PORT points it at this server.
HEALTH_STATUS=0
image_run "KENNEL_PORT=$PORT" timeout "$HEALTH_TIMEOUT" "${HEALTH_CMD[@]}" || HEALTH_STATUS=$?
check "HEALTHCHECK command exits 0 against the server (exit $HEALTH_STATUS)" test "$HEALTH_STATUS" = 0
CLOSED_PORT=$(free_port)
HEALTH_STATUS=0
image_run "KENNEL_PORT=$CLOSED_PORT" timeout "$HEALTH_TIMEOUT" "${HEALTH_CMD[@]}" || HEALTH_STATUS=$?
check "HEALTHCHECK command fails when nothing listens (exit $HEALTH_STATUS): it really probes" test "$HEALTH_STATUS" != 0

RESPONSE=$(http_get "http://127.0.0.1:$PORT/v1/pets" kennel-dev-key)
info "GET /v1/pets (Bearer kennel-dev-key) -> $RESPONSE"
check "GET /v1/pets with the development key kennel-dev-key: 200" test "${RESPONSE%% *}" = 200
RESPONSE=$(http_get "http://127.0.0.1:$PORT/v1/pets")
check "GET /v1/pets without a key: 401 (${RESPONSE%% *})" test "${RESPONSE%% *}" = 401
# The reference's static files (web/reference/) must be in the image, not only in the repository.
RESPONSE=$(http_get "http://127.0.0.1:$PORT/__kennel/docs/try-it.js")
check "GET /__kennel/docs/try-it.js: 200, the API reference's script is in the image (${RESPONSE%% *})" test "${RESPONSE%% *}" = 200
for ASSET in dashboard dashboard/app.js dashboard/app.css; do
  RESPONSE=$(http_get "http://127.0.0.1:$PORT/__kennel/$ASSET")
  check "GET /__kennel/$ASSET: 200, the page's files are in the image (${RESPONSE%% *})" test "${RESPONSE%% *}" = 200
done
check_all_interfaces "ENTRYPOINT + CMD"
stop_server
check "SIGTERM (docker stop) ends the server within 10 s with exit 0 ($STOP_STATUS)" test "$STOP_STATUS" = 0

# `docker run IMAGE serve --seed 7` replaces CMD: the image's ENV, not CMD, must make it reachable.
section "docker run IMAGE serve --seed 7 (arguments replace CMD)"
OVERRIDE=("${ENTRY[@]:1}" serve --seed 7)
PORT=$(free_port)
start_server "$WORK/logs/server-override.log" "${OVERRIDE[@]}"
check "override: the banner shows seed 7 (the arguments were used)" grep -q 'seed 7' "$SERVER_LOG"
check_all_interfaces "override"
stop_server
check "override: SIGTERM ends the server with exit 0 ($STOP_STATUS)" test "$STOP_STATUS" = 0
