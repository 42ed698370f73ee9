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
