import type { DestinationStream } from 'pino';

/** What a command may touch of the outside world; tests pass their own to run the CLI in-process. */
export interface CliIo {
  env: Record<string, string | undefined>;
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown };
  /** Where request logs go (pino JSON lines); stdout when the real process runs. */
  logStream: DestinationStream;
  /** Whether logStream is a terminal (then logs are pretty unless --log-format json). */
  logIsTerminal?: boolean;
  /** Whether stderr is a terminal (then `kennel check` draws a live progress line there). */
  stderrIsTerminal?: boolean;
  /** Aborted to stop long-running commands (serve); SIGINT/SIGTERM in the real process. */
  signal: AbortSignal;
  /** Called once a long-running command is ready (the mock is listening), with what it serves. */
  onReady?: (info: { url: string; origin: string }) => void;
}
