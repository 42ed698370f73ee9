import {
  closeSync,
  linkSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { hostname } from 'node:os';
import { ToolError } from '../core/tool-error.js';

/** The first line of a lock file: which kennel holds the data file. */
interface Holder {
  kennel: 'data file lock';
  pid: number;
  host: string;
  /** The process's start time as /proc shows it (Linux): tells a live holder from a reused pid. */
  start?: string;
  since: string;
}

/** Key sequence positions reserved per tenant id and collection name: what a killed kennel may have handed out. */
export type Reservations = Record<string, Record<string, number>>;

/** The start time of process `pid` in clock ticks since boot (field 22 of /proc/PID/stat), where there is a /proc. */
function startOf(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
  } catch {
    return undefined;
  }
}

/** Whether the kennel that wrote `holder` may still run. On another host kennel cannot tell: it assumes so. */
function mayRun(holder: Holder): boolean {
  if (holder.host !== hostname()) return true;
  // A restarted container is often pid 1 again: a lock naming this very process is a previous life's.
  if (holder.pid === process.pid) return false;
  try {
    process.kill(holder.pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ESRCH') return false;
  }
  const start = startOf(holder.pid);
  return holder.start === undefined || start === undefined || start === holder.start;
}

function parseHolder(line: string | undefined): Holder | undefined {
  try {
    const holder = JSON.parse(line ?? '') as Holder;
    return holder.kennel === 'data file lock' && Number.isSafeInteger(holder.pid) ? holder : undefined;
  } catch {
    return undefined;
  }
}

/** The reservation lines after the holder line; a torn last line (a kill mid-write) is skipped. */
function parseReservations(lines: readonly string[]): Reservations {
  const reserved: Reservations = {};
  for (const line of lines) {
    try {
      const { tenant, collection, next } = JSON.parse(line) as Record<string, unknown>;
      if (typeof tenant !== 'string' || typeof collection !== 'string' || !Number.isSafeInteger(next)) continue;
      const forTenant = (reserved[tenant] ??= {});
      forTenant[collection] = Math.max(forTenant[collection] ?? 0, next as number);
    } catch {
      // Not a whole line: it was being written when the process died, and reserved nothing yet.
    }
  }
  return reserved;
}

/** A lock file younger than a few seconds whose holder line is unreadable may be one being written. */
function justWritten(path: string): boolean {
  try {
    return Date.now() - statSync(path).mtimeMs < 5_000;
  } catch {
    return false;
  }
}

function describe(holder: Holder): string {
  const where = holder.host === hostname() ? '' : ` on host ${holder.host}`;
  return `pid ${holder.pid}${where}, since ${holder.since}`;
}

function failure(error: unknown): string {
  return (error as NodeJS.ErrnoException).code ?? 'error';
}

/**
 * The lock of a `--data` file (`FILE.lock`): one kennel at a time keeps a data file, so two
 * never save over each other's items or hand out the same ids. The lock also records the key
 * positions this kennel reserved: after a kill -9 the next kennel reads them and skips every id
 * that may have been handed out since the last save.
 */
export class DataLock {
  readonly #path: string;
  readonly #fd: number;

  private constructor(path: string, fd: number) {
    this.#path = path;
    this.#fd = fd;
  }

  /**
   * Takes the lock of `file`, or throws a ToolError naming the kennel that holds it. A lock whose
   * holder is gone (a kill -9) is taken over; its reservations are handed back to apply.
   */
  static acquire(file: string): { lock: DataLock; reserved: Reservations } {
    const path = `${file}.lock`;
    const holder: Holder = {
      kennel: 'data file lock',
      pid: process.pid,
      host: hostname(),
      start: startOf(process.pid),
      since: new Date().toISOString(),
    };
    const line = `${JSON.stringify(holder)}\n`;
    for (let attempt = 0; attempt < 3; attempt += 1) {
      if (createWhole(path, line)) return { lock: DataLock.#open(path, file), reserved: {} };
      let text: string;
      try {
        text = readFileSync(path, 'utf8');
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') continue;
        throw new ToolError(`cannot read the data file's lock ${path} (${failure(error)})`, file);
      }
      const [first, ...rest] = text.split('\n');
      const previous = parseHolder(first);
      if (!previous && justWritten(path))
        throw new ToolError(`in use by another kennel that is starting: stop it, or choose another --data file`, file);
      if (previous && mayRun(previous))
        throw new ToolError(
          `in use by another kennel (${describe(previous)}): stop it, or choose another --data file; if that kennel is gone, delete ${path}`,
          file,
        );
      // Taken over in one rename, the previous holder's reservations kept until the store saves them.
      const kept = rest.filter((entry) => entry.trim() !== '');
      replaceWhole(path, line + kept.map((entry) => `${entry}\n`).join(''), file);
      if (parseHolder(readFileSync(path, 'utf8').split('\n', 1)[0])?.pid !== process.pid) continue;
      return { lock: DataLock.#open(path, file), reserved: parseReservations(kept) };
    }
    throw new ToolError(`another kennel keeps taking the data file's lock ${path}: start one kennel per file`, file);
  }

  static #open(path: string, file: string): DataLock {
    try {
      return new DataLock(path, openSync(path, 'a'));
    } catch (error) {
      throw new ToolError(`cannot write the data file's lock ${path} (${failure(error)})`, file);
    }
  }

  /** Records that `tenant`'s `collection` may hand out keys below `next`; on disk when this returns. */
  reserve(tenant: string, collection: string, next: number): void {
    writeSync(this.#fd, `${JSON.stringify({ tenant, collection, next })}\n`);
  }

  /** Gives the file back (after a save that holds everything the reservations covered). */
  release(): void {
    closeSync(this.#fd);
    rmSync(this.#path, { force: true });
  }

  /** Stops recording without giving the file back: its reservations stay for the next kennel. */
  abandon(): void {
    closeSync(this.#fd);
  }
}

/** Creates `path` with `text`, atomically (a reader sees all of it or no file); false when it exists. */
function createWhole(path: string, text: string): boolean {
  const temporary = `${path}.${process.pid}.new`;
  try {
    writeFileSync(temporary, text);
    linkSync(temporary, path);
    return true;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') return false;
    // A file system without hard links: an exclusive create, whose content follows a moment later.
    if (code === 'EPERM' || code === 'ENOTSUP' || code === 'ENOSYS') return createExclusive(path, text);
    throw new ToolError(`cannot write the data file (${failure(error)})`, path.slice(0, -'.lock'.length));
  } finally {
    rmSync(temporary, { force: true });
  }
}

function createExclusive(path: string, text: string): boolean {
  try {
    writeFileSync(path, text, { flag: 'wx' });
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw new ToolError(`cannot write the data file (${failure(error)})`, path.slice(0, -'.lock'.length));
  }
}

function replaceWhole(path: string, text: string, file: string): void {
  const temporary = `${path}.${process.pid}.new`;
  try {
    writeFileSync(temporary, text);
    renameSync(temporary, path);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw new ToolError(`cannot write the data file's lock ${path} (${failure(error)})`, file);
  }
}
