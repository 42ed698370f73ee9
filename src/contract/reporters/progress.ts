import type { RunListener, RunProgress } from '../run/run-types.js';

/** How often the live line is redrawn at most. */
const REDRAW_MS = 100;

/** `12.4 s`, `3 min 05 s`. */
function elapsed(ms: number): string {
  const seconds = ms / 1000;
  if (seconds < 60) return `${seconds.toFixed(1)} s`;
  return `${Math.floor(seconds / 60)} min ${String(Math.floor(seconds % 60)).padStart(2, '0')} s`;
}

/** The live line: phase, steps done of all, requests, findings so far, time since the start. */
export function progressLine(progress: RunProgress, elapsedMs: number): string {
  const steps = progress.total > 0 ? `${progress.done}/${progress.total} steps · ` : '';
  const findings = `${progress.findings} finding${progress.findings === 1 ? '' : 's'}`;
  return `${progress.phase} · ${steps}${progress.requests} requests · ${findings} · ${elapsed(elapsedMs)}`;
}

/**
 * A live line on a terminal: redrawn in place (carriage return, erase line) at most every 100 ms,
 * and also every second while the run waits (a rate limit, a slow deployment), so the clock moves;
 * erased when the run ends, before the summary is written.
 */
export function terminalProgress(write: (text: string) => void, now: () => number = Date.now): RunListener {
  let started = now();
  let last: RunProgress | undefined;
  let drawnAt = 0;
  let timer: NodeJS.Timeout | undefined;
  const draw = (): void => {
    if (!last) return;
    drawnAt = now();
    write(`\r\x1b[K${progressLine(last, drawnAt - started)}`);
  };
  return {
    runStart() {
      started = now();
      timer = setInterval(draw, 1000);
      timer.unref();
    },
    progress(progress) {
      last = progress;
      if (now() - drawnAt >= REDRAW_MS) draw();
    },
    runEnd() {
      clearInterval(timer);
      if (last) write('\r\x1b[K');
    },
  };
}
