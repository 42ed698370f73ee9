import { watch, type FSWatcher } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Logger } from 'pino';
import { ToolError } from '../core/tool-error.js';
import type { Reloaded } from '../serve/reloadable.js';
import type { RunningMock } from '../serve/server.js';
import type { CliIo } from './io.js';

/** Quiet time after the last change before reloading: an editor's save is several events. */
export const WATCH_DEBOUNCE_MS = 150;

/** Most files followed through `$ref`s; a document with more still reloads on its own changes. */
const MAX_WATCHED_FILES = 200;

// `$ref: other.yaml#/X`, `"$ref": "./a/b.json"`: any reference that is not local (`#…`) nor a URL.
const EXTERNAL_REF = /["']?\$ref["']?\s*:\s*["']?([^"'#\s][^"'#\s]*)/g;

/** The document and every local file it reaches through `$ref`s, as absolute paths. */
export async function documentFiles(entry: string): Promise<string[]> {
  const files = [path.resolve(entry)];
  for (let index = 0; index < files.length && files.length < MAX_WATCHED_FILES; index += 1) {
    const file = files[index]!;
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch {
      continue; // Missing now (mid-save, or a broken reference): the loader will say so.
    }
    for (const [, target] of text.matchAll(EXTERNAL_REF)) {
      if (/^[a-z][a-z0-9+.-]*:/i.test(target!)) continue;
      const resolved = path.resolve(path.dirname(file), decodeURIComponent(target!));
      if (!files.includes(resolved)) files.push(resolved);
    }
  }
  return files;
}

/**
 * Calls `onChange` when one of `files` changes. Directories are watched rather than files:
 * editors save by writing a new file and renaming it over the old one, which ends a watch on the
 * file itself. Returns the stop function.
 */
export function watchFiles(files: readonly string[], onChange: () => void): () => void {
  const byDirectory = new Map<string, Set<string>>();
  for (const file of files) {
    const names = byDirectory.get(path.dirname(file)) ?? new Set();
    names.add(path.basename(file));
    byDirectory.set(path.dirname(file), names);
  }
  const watchers: FSWatcher[] = [];
  for (const [directory, names] of byDirectory) {
    try {
      const watcher = watch(directory, (_event, name) => {
        if (name === null || names.has(String(name))) onChange();
      });
      watcher.on('error', () => undefined);
      watchers.push(watcher);
    } catch {
      // A directory that does not exist (a broken reference): nothing there to watch.
    }
  }
  return () => watchers.forEach((watcher) => watcher.close());
}

/**
 * `kennel serve --watch`: reloads the document when it, or a file it references, changes. A
 * document that fails to load is reported with its location and the previous one keeps serving.
 * Reloads run one at a time; changes during one lead to one more. Returns the stop function.
 */
export async function watchDocument(running: RunningMock, logger: Logger, io: CliIo): Promise<() => void> {
  const file = running.config.specPath;
  let busy = false;
  let again = false;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  const changed = (): void => {
    clearTimeout(timer);
    timer = setTimeout(() => void reload(), WATCH_DEBOUNCE_MS);
  };
  let files = await documentFiles(file);
  let stopWatching = watchFiles(files, changed);
  const rewatch = async (): Promise<void> => {
    // References may have changed: follow the files the document names now. The new watch opens
    // before the old one closes, so no save in between goes unseen.
    const now = await documentFiles(file);
    if (stopped || now.join('\n') === files.join('\n')) return;
    const previous = stopWatching;
    files = now;
    stopWatching = watchFiles(files, changed);
    previous();
  };
  const reload = async (): Promise<void> => {
    if (busy) {
      again = true;
      return;
    }
    busy = true;
    try {
      report(await running.reload(), running.proxy !== undefined, logger, io);
    } catch (error) {
      const message = error instanceof ToolError ? error.message : `unexpected failure: ${(error as Error).message}`;
      logger.error({ file, error: message }, 'reload failed');
      io.stderr.write(`kennel: reload failed, still serving the previous document: ${message}\n`);
    }
    await rewatch();
    busy = false;
    if (again && !stopped) {
      again = false;
      await reload();
    }
  };
  return () => {
    stopped = true;
    clearTimeout(timer);
    stopWatching();
  };
}

function report(result: Reloaded, proxied: boolean, logger: Logger, io: CliIo): void {
  const store = proxied
    ? 'exchanges are judged against it from now on'
    : result.shared
      ? 'the shared store (Redis) is left as it is'
      : `kept ${result.kept} items, dropped ${result.dropped}`;
  const line = `reloaded ${result.file}: ${result.operations} operations${proxied || result.shared ? ';' : ','} ${store}`;
  logger.info({ ...result }, line);
  io.stderr.write(`kennel: ${line}\n`);
}
