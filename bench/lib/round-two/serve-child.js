// A `kennel serve` child for the second round's families: its own process group, its banner read
// back for the origin, every stdout and stderr line scanned for error-level log lines, stack
// traces and given secrets as it streams by (nothing kept but a tail and counts).
import { spawn } from 'node:child_process';
import { exitOf } from '../children.js';
import { shebangNodeFlags } from '../node-flags.js';

const live = new Set();
const TAIL_BYTES = 8192;
/** The V8 flags of bin/kennel.js's shebang, passed explicitly so the child runs on this process's Node. */
const NODE_FLAGS = shebangNodeFlags();

function signalGroup(pid, signal) {
  try {
    process.kill(-pid, signal);
  } catch {
    try {
      process.kill(pid, signal);
    } catch {
      // already gone
    }
  }
}

/** Synchronously kills every kennel this module started (exit and signal paths). */
export function killServeChildren() {
  for (const handle of live) signalGroup(handle.pid, 'SIGKILL');
}

/** Counts what the child prints that it must not: error-level lines, stacks, secrets. */
class LineScanner {
  #carry = '';
  counts = { errorLines: 0, stackLines: 0, secretLines: 0 };
  samples = [];

  /** `secrets`: strings no line may hold; `patterns`: further counts by name (lines matching each). */
  constructor(secrets, patterns) {
    this.secrets = secrets;
    this.patterns = patterns;
    for (const name of Object.keys(patterns)) this.counts[name] = 0;
  }

  push(text) {
    const lines = (this.#carry + text).split('\n');
    this.#carry = lines.pop() ?? '';
    for (const line of lines) this.#line(line);
  }

  #line(line) {
    const flagged = [];
    if (/"level":(50|60)\b/.test(line)) flagged.push('errorLines');
    if (/"stack"|\n\s+at |^\s+at \S+ \(/.test(line)) flagged.push('stackLines');
    if (this.secrets.some((secret) => line.includes(secret))) flagged.push('secretLines');
    for (const kind of flagged) this.counts[kind] += 1;
    for (const [name, pattern] of Object.entries(this.patterns)) if (pattern.test(line)) this.counts[name] += 1;
    if (flagged.length > 0 && this.samples.length < 5) this.samples.push(line.slice(0, 300));
  }
}

/**
 * Spawns `node bin serve --port 0 <args>`. Resolves {origin, pid, stop, kill, exited, output,
 * scanned} once the banner names the API, or {exit: {code, signal}, output} when it exits first
 * (a refused start-up is an outcome some families want). `secrets` are looked for in every line,
 * and lines matching each of `patterns` counted (`scanned()` has the counts).
 */
export function spawnServe({ bin, cwd, args, secrets = [], patterns = {}, timeoutMs = 30_000, env = {} }) {
  const child = spawn(process.execPath, [...NODE_FLAGS, bin, 'serve', '--port', '0', ...args], {
    cwd,
    env: { ...process.env, KENNEL_API_KEYS: '', KENNEL_ADMIN_TOKEN: '', KENNEL_PORT: '', KENNEL_HOST: '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let tail = '';
  let stderrText = '';
  const scanner = new LineScanner(secrets, patterns);
  const handle = { pid: child.pid, exitInfo: undefined };
  const keep = (text) => {
    scanner.push(text);
    tail = (tail + text).slice(-TAIL_BYTES);
  };
  child.stdout.setEncoding('utf8');
  child.stderr.setEncoding('utf8');
  child.stdout.on('data', keep);
  const exited = exitOf(child, handle, live, (message) => keep(`${message}\n`));
  if (child.pid !== undefined) live.add(handle);
  const result = {
    pid: child.pid,
    exited,
    output: () => tail,
    scanned: () => ({ ...scanner.counts, samples: scanner.samples }),
    stop: async (graceMs = 3000) => {
      if (handle.exitInfo) return handle.exitInfo;
      signalGroup(child.pid, 'SIGTERM');
      const timer = setTimeout(() => signalGroup(child.pid, 'SIGKILL'), graceMs);
      const info = await exited;
      clearTimeout(timer);
      return info;
    },
    kill: async () => {
      signalGroup(child.pid, 'SIGKILL');
      return exited;
    },
  };
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      signalGroup(child.pid, 'SIGKILL');
      reject(new Error(`kennel serve ${args.join(' ')} did not start within ${timeoutMs / 1000} s:\n${tail}`));
    }, timeoutMs);
    child.stderr.on('data', (text) => {
      keep(text);
      if (stderrText.length < 64 * 1024) stderrText += text;
      const api = /^\s*API\s+(http:\/\/[^\s/]+)/m.exec(stderrText);
      if (api && !result.origin) {
        clearTimeout(timer);
        result.origin = api[1];
        resolve(result);
      }
    });
    void exited.then((info) => {
      clearTimeout(timer);
      if (!result.origin) resolve({ exit: info, output: () => tail, scanned: result.scanned });
    });
  });
}
