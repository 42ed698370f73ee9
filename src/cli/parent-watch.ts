import { readFileSync } from 'node:fs';

/** How often the parent is looked at: a `kill $!` on `npx kennel serve &` ends kennel within this. */
export const PARENT_POLL_MS = 500;

/**
 * Whether kennel was started by npm (`npx kennel …`, `npm start`, `npm exec`). npm runs the command
 * through `sh -c`, and when the npm process is killed (`kill $!` after `npx kennel serve &`) npm
 * signals that shell, which dies without passing the signal on: kennel would be left running,
 * adopted by init, still holding its port.
 */
export function startedByNpm(env: Record<string, string | undefined>): boolean {
  return Boolean(env.npm_command || env.npm_lifecycle_event);
}

/**
 * Calls `onOrphaned` once when the process that started kennel has gone (the kernel then gives
 * kennel a new parent, so `ppid()` changes). The timer does not keep the process alive; the
 * returned function stops watching.
 */
export function watchParent(ppid: () => number, onOrphaned: () => void, pollMs = PARENT_POLL_MS): () => void {
  const first = ppid();
  const timer = setInterval(() => {
    if (ppid() === first) return;
    clearInterval(timer);
    onOrphaned();
  }, pollMs);
  timer.unref();
  return () => clearInterval(timer);
}

/** `/proc/<pid>/stat`'s state and parent pid; undefined where there is no /proc (macOS) or no such process. */
function procStat(pid: number): { state: string; ppid: number } | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // "pid (comm) state ppid …": comm may hold spaces and parentheses, so read after the last ')'.
    const [state, ppid] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { state: state!, ppid: Number(ppid) };
  } catch {
    return undefined;
  }
}

function isNpm(pid: number): boolean {
  try {
    return /^(npm|npx)\b/.test(readFileSync(`/proc/${pid}/cmdline`, 'utf8'));
  } catch {
    return false;
  }
}

/** The npm process among kennel's parent and grandparent (npm's `sh -c` sits between), if it can tell. */
function npmAncestor(ppid: number): number | undefined {
  if (isNpm(ppid)) return ppid;
  const grandparent = procStat(ppid)?.ppid;
  return grandparent !== undefined && isNpm(grandparent) ? grandparent : undefined;
}

/**
 * Under npm: stops kennel (`stop`) when npm has gone. When only npm's shell has gone and npm still
 * runs (a script such as `kennel serve &` that leaves kennel in the background on purpose),
 * kennel stays. Without /proc, any change of parent stops kennel.
 */
export function watchNpm(stop: () => void): () => void {
  const npm = npmAncestor(process.ppid);
  return watchParent(
    () => process.ppid,
    () => {
      const state = npm === undefined ? undefined : procStat(npm)?.state;
      if (state === undefined || state === 'Z' || state === 'X') stop();
    },
  );
}
