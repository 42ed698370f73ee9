import { readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Logger } from 'pino';
import { parseJson, stringifyJson } from '../core/json.js';
import { ToolError } from '../core/tool-error.js';
import { parseYamlSource } from '../openapi/yaml-source.js';
import { ResourceStore, tenantId } from '../store/resource-store.js';
import type { Store } from '../store/store-types.js';
import { readSnapshot } from '../store/store-snapshot.js';
import { DataLock, type Reservations } from './data-lock.js';

/** How long after a change the file is written: a burst of creates costs one write. */
const SAVE_DELAY_MS = 1_000;
/** The largest file loaded: far above what the default memory bounds let kennel write. */
const MAX_FILE_BYTES = 512 * 1024 * 1024;
/** Key positions reserved at once: one line appended to the lock per this many ids handed out. */
const RESERVATION_BLOCK = 100;

/** Escapes `text` for use inside a regular expression. */
function literal(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * Removes what a kennel killed while saving left beside `file`: `FILE.<pid>.tmp` (a save) and
 * `FILE.lock.<pid>.new` (a lock being written). Only the lock's holder runs this: no save is under way.
 */
async function removeLitter(file: string): Promise<void> {
  const folder = path.dirname(file);
  const name = literal(path.basename(file));
  const litter = new RegExp(`^${name}\\.(\\d+\\.tmp|lock\\.\\d+\\.new)$`);
  const names = await readdir(folder).catch(() => [] as string[]);
  await Promise.all(
    names.filter((entry) => litter.test(entry)).map((entry) => rm(path.join(folder, entry), { force: true })),
  );
}

/** The line of `pointer` in JSON text (JSON is YAML, whose parser keeps lines), for a ToolError. */
function lineOf(text: string, pointer: string): number {
  const parsed = parseYamlSource(text);
  return (parsed.ok ? parsed.source.lineOf(pointer) : undefined) ?? 1;
}

/** Reads the snapshot at `file` into `store`; false when there is no file yet. A broken file is a ToolError. */
async function load(file: string, store: ResourceStore, collections: Parameters<typeof readSnapshot>[1]) {
  let text: string;
  try {
    const { size } = await stat(file);
    if (size > MAX_FILE_BYTES)
      throw new ToolError(`is ${size} bytes, more than the ${MAX_FILE_BYTES} kennel loads`, file);
    text = await readFile(file, 'utf8');
  } catch (error) {
    if (error instanceof ToolError) throw error;
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw new ToolError(`cannot read the data file (${(error as NodeJS.ErrnoException).code ?? 'error'})`, file);
  }
  const parsed = parseJson(text);
  if (!parsed.ok) throw new ToolError(`not JSON: ${parsed.message}; fix or remove the file`, file);
  const read = readSnapshot(parsed.value, collections);
  if (!read.ok)
    throw new ToolError(
      `${read.pointer || '/'}: ${read.message}; fix or remove the file`,
      `${file}:${lineOf(text, read.pointer)}`,
    );
  store.restore(read.snapshot);
  return true;
}

/**
 * `--data FILE`: the in-memory store survives a restart. Loaded at start-up (a broken file stops
 * kennel, exit 2: never silently discarded); written a second after changes and on shutdown,
 * atomically (a temporary file renamed over the old one: a crash never leaves half a file).
 * One kennel at a time holds the file (data-lock.ts), and ids handed out after the last save
 * are reserved in the lock first, so a kill -9 never makes kennel hand them out again.
 */
export class DataFile {
  readonly #file: string;
  readonly #store: ResourceStore;
  readonly #logger: Logger;
  readonly #lock: DataLock;
  readonly #tenantIds = new Map<string, string>();
  #timer: NodeJS.Timeout | undefined;
  #saving: Promise<void> = Promise.resolve();
  #reservationFailed = false;

  private constructor(file: string, store: ResourceStore, logger: Logger, lock: DataLock) {
    this.#file = file;
    this.#store = store;
    this.#logger = logger;
    this.#lock = lock;
  }

  /** Locks `file`, loads it into `store` (when it exists) and saves there from now on. */
  static async open(file: string, store: Store, logger: Logger): Promise<DataFile> {
    if (!(store instanceof ResourceStore))
      throw new ToolError('--data keeps the in-memory store; with --store redis:// Redis keeps the state');
    const { lock, reserved } = DataLock.acquire(file);
    let data: DataFile;
    try {
      await removeLitter(file);
      data = new DataFile(file, store, logger, lock);
      await data.#load(reserved);
    } catch (error) {
      lock.abandon();
      throw error;
    }
    return data;
  }

  async #load(reserved: Reservations): Promise<void> {
    const file = this.#file;
    const store = this.#store;
    const loaded = await load(file, store, store.collections);
    // A kennel killed since its last save may have handed out ids up to what it reserved.
    store.raiseSequences(reserved);
    store.onReserve = (tenant, collection, upTo) => this.#reserve(tenant, collection, upTo);
    // Created now, as the docs say: a file kennel could never save (missing folder) stops start-up
    // instead of losing every later save to a log warning.
    if (!loaded)
      await this.save().catch((error: unknown) => {
        throw new ToolError(`cannot write the data file (${(error as NodeJS.ErrnoException).code ?? 'error'})`, file);
      });
    store.onChange = () => this.#schedule();
  }

  /** Makes key positions below `upTo` (and a block beyond) durable in the lock before they are handed out. */
  #reserve(tenant: string, collection: string, upTo: number): number {
    let id = this.#tenantIds.get(tenant);
    if (id === undefined) this.#tenantIds.set(tenant, (id = tenantId(tenant)));
    const next = upTo + RESERVATION_BLOCK - 1;
    try {
      this.#lock.reserve(id, collection, next);
      this.#reservationFailed = false;
      return next;
    } catch (error) {
      // The disk is full or gone: saves fail too. The id is handed out; the next one tries again.
      if (!this.#reservationFailed)
        this.#logger.warn({ file: this.#file, reason: (error as NodeJS.ErrnoException).code }, 'could not reserve ids');
      this.#reservationFailed = true;
      return upTo;
    }
  }

  #schedule(): void {
    if (this.#timer) return;
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      void this.save().catch((error: unknown) =>
        this.#logger.warn({ file: this.#file, err: error }, 'could not save the data file'),
      );
    }, SAVE_DELAY_MS);
    this.#timer.unref();
  }

  /** Writes the store now (after any save under way). */
  save(): Promise<void> {
    const text = `${stringifyJson(this.#store.snapshot())}\n`;
    this.#saving = this.#saving
      .catch(() => {})
      .then(async () => {
        const temporary = `${this.#file}.${process.pid}.tmp`;
        try {
          await writeFile(temporary, text);
          await rename(temporary, this.#file);
        } catch (error) {
          await rm(temporary, { force: true });
          throw error;
        }
      });
    return this.#saving;
  }

  /** The last save, on shutdown; once it is written the lock is given back (else kept with its reservations). */
  async close(): Promise<void> {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#store.onChange = undefined;
    try {
      await this.save();
    } catch (error) {
      this.#lock.abandon();
      throw error;
    }
    this.#store.onReserve = undefined;
    this.#lock.release();
  }
}
