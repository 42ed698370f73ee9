import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** Every kennel spawned here and still running: killed when the test worker exits, even after a failed assertion. */
const live = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of live) child.kill('SIGKILL');
});

/** A spawned `node bin/kennel.js serve …` (the built dist/), on the port it chose itself. */
export interface KennelProcess {
  /** `http://127.0.0.1:<port>`, read back from the banner. */
  origin: string;
  child: ChildProcess;
  stderr(): string;
  /** Sends `signal` (SIGTERM by default) and resolves with the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/** Spawns `kennel serve --port 0 <args>` and resolves once its banner names the API's URL. */
export function spawnKennel(args: readonly string[], timeoutMs = 20_000): Promise<KennelProcess> {
  const child = spawn(process.execPath, ['bin/kennel.js', 'serve', '--port', '0', '--log-level', 'warn', ...args], {
    cwd: ROOT,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  live.add(child);
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => {
      live.delete(child);
      resolve(code);
    }),
  );
  const stop = async (signal: NodeJS.Signals = 'SIGTERM') => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    return exited;
  };
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`kennel did not start within ${timeoutMs} ms:\n${stderr}`));
    }, timeoutMs);
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
      const match = /API {6}(http:\/\/[^/\s]+)/.exec(stderr);
      if (match) {
        clearTimeout(timer);
        resolve({ origin: match[1]!, child, stderr: () => stderr, stop });
      }
    });
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`kennel exited with ${code} before it was ready:\n${stderr}`));
    });
  });
}
