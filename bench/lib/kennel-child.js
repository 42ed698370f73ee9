// A real `kennel serve` as a child process for the reliability suite: free ports chosen by the
// server itself (`--port 0 --dns-port 0`) and read back from its banner, never probed then bound;
// its own process group, so stopping it stops everything it forked; every byte it writes scanned
// for secrets (the request log and the banner must never show a configured key or token).
import { spawn } from 'node:child_process';
import { exitOf } from './children.js';
import { LeakScanner } from './conformance.js';
import { shebangNodeFlags } from './node-flags.js';

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

/**
 * A shell in its own process group that kills the kennel group once this process is gone, even
 * by SIGKILL (when no exit handler runs), and exits by itself once kennel has exited.
 */
function startReaper(kennelPid) {
  const script = `while kill -0 ${process.pid} 2>/dev/null && kill -0 -${kennelPid} 2>/dev/null; do sleep 0.5; done; kill -9 -${kennelPid} 2>/dev/null`;
  try {
    spawn('/bin/sh', ['-c', script], { detached: true, stdio: 'ignore' }).unref();
  } catch {
    // no shell: the exit and signal handlers still stop kennel
  }
}

/** Synchronously kills every kennel this module started (exit and signal paths). */
export function killAllKennels() {
  for (const handle of live) signalGroup(handle.pid, 'SIGKILL');
}

/**
 * Starts `kennel serve` with `args` (after `--port 0 --dns-port 0`) and resolves once the banner
 * names the HTTP origin and the DNS port. `fragments` (conformance.secretFragments) are looked
 * for in stdout and stderr as they stream by. Rejects when the child exits first or after
 * `timeoutMs`.
 */
export async function startKennel({ bin, cwd, args, fragments, timeoutMs = 30_000 }) {
  const startedAt = performance.now();
  const child = spawn(process.execPath, [...NODE_FLAGS, bin, 'serve', '--port', '0', '--dns-port', '0', ...args], {
    cwd,
    env: { ...process.env, KENNEL_API_KEYS: '', KENNEL_ADMIN_TOKEN: '', KENNEL_PORT: '', KENNEL_HOST: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let tail = '';
  let stderrText = '';
  let stdoutBytes = 0;
  let stdoutLines = 0;
  const scanners = { stdout: new LeakScanner(fragments), stderr: new LeakScanner(fragments) };
  const handle = {
    pid: child.pid,
    startedAt,
    exitInfo: undefined,
    exited: undefined,
    origin: undefined,
    host: undefined,
    port: undefined,
    dnsPort: undefined,
    output: () => tail.trim(),
    /** {stdout: Map(label -> chunks), stderr: …}: where secret fragments were seen. */
    leaks: () => ({ stdout: scanners.stdout.found, stderr: scanners.stderr.found }),
    logVolume: () => ({ bytes: stdoutBytes, lines: stdoutLines }),
    stop: (graceMs) => stopKennel(handle, graceMs),
  };
  child.stdout.setEncoding('utf8');
  child.stderr.setEncoding('utf8');
  child.stdout.on('data', (text) => {
    stdoutBytes += text.length;
    for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) stdoutLines += 1;
    scanners.stdout.push(text);
    tail = (tail + text).slice(-TAIL_BYTES);
  });
  let onBanner;
  child.stderr.on('data', (text) => {
    scanners.stderr.push(text);
    tail = (tail + text).slice(-TAIL_BYTES);
    if (stderrText.length < 64 * 1024) stderrText += text;
    onBanner?.();
  });
  handle.exited = exitOf(child, handle, live, (message) => (tail += `\n${message}`));
  if (child.pid !== undefined) {
    live.add(handle);
    startReaper(child.pid);
  }

  const banner = new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no banner within ${timeoutMs / 1000} s`)), timeoutMs);
    onBanner = () => {
      const api = /^\s*API\s+(http:\/\/([^\s/]+):(\d+))\/\S*/m.exec(stderrText);
      const dns = /^\s*dns\s+\S+ port (\d+)/m.exec(stderrText);
      if (!api || !dns) return;
      clearTimeout(timer);
      onBanner = undefined;
      resolve({ origin: api[1], host: api[2], port: Number(api[3]), dnsPort: Number(dns[1]) });
    };
    handle.exited.then((info) => {
      clearTimeout(timer);
      reject(new Error(`kennel exited (code ${info.code}, signal ${info.signal}) before its banner`));
    });
  });
  try {
    Object.assign(handle, await banner);
  } catch (error) {
    await stopKennel(handle);
    throw new Error(`${error.message}; its output:\n${handle.output() || '(none)'}`);
  }
  handle.readyMs = performance.now() - startedAt;
  return handle;
}

/** SIGTERM, then SIGKILL after `graceMs`; resolves once the child has exited. */
export async function stopKennel(handle, graceMs = 3000) {
  if (handle.exitInfo) return handle.exitInfo;
  signalGroup(handle.pid, 'SIGTERM');
  const timer = setTimeout(() => signalGroup(handle.pid, 'SIGKILL'), graceMs);
  const info = await handle.exited;
  clearTimeout(timer);
  signalGroup(handle.pid, 'SIGKILL');
  return info;
}
