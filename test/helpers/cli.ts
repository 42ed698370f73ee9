import { PassThrough } from 'node:stream';
import { createServer } from 'node:net';
import { run } from '../../src/cli/main.js';
import type { CliIo } from '../../src/cli/io.js';
import { GrowingText } from './wait.js';

export interface CliRun {
  code: Promise<number>;
  stdout: () => string;
  stderr: () => string;
  /** Resolves as soon as stderr holds `pattern` (an event, not a poll); fails after `timeoutMs`. */
  stderrUntil: (pattern: string | RegExp, timeoutMs?: number) => Promise<void>;
  logs: () => string[];
  /** Resolves with the served URL once a long-running command is ready. */
  ready: Promise<{ url: string; origin: string }>;
  stop: () => void;
}

/** Runs `kennel <argv>` in-process with captured output; `stop()` plays the part of Ctrl-C. */
export function runCli(argv: string[], env: Record<string, string | undefined> = {}): CliRun {
  let stdout = '';
  const stderr = new GrowingText();
  let logText = '';
  const logStream = new PassThrough();
  logStream.on('data', (chunk) => (logText += chunk));
  const controller = new AbortController();
  let markReady!: (info: { url: string; origin: string }) => void;
  const ready = new Promise<{ url: string; origin: string }>((resolve) => (markReady = resolve));
  const io: CliIo = {
    env,
    stdout: { write: (text: string) => (stdout += text) },
    stderr: { write: (text: string) => stderr.append(text) },
    logStream,
    signal: controller.signal,
    onReady: markReady,
  };
  return {
    code: run(argv, io),
    stdout: () => stdout,
    stderr: () => stderr.toString(),
    stderrUntil: (pattern, timeoutMs) => stderr.until(pattern, timeoutMs),
    logs: () => logText.split('\n').filter((line) => line !== ''),
    ready,
    stop: () => controller.abort(),
  };
}

/** A port nothing listens on right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}
