import pluralize from 'pluralize';

/**
 * Words of a name, lower case, whatever its spelling: `originStationId`, `origin_station_id`,
 * `origin-station-id` and `OriginStationID` all give `origin station id`.
 */
export function wordsOf(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((word) => word !== '');
}

/** One spelling for comparing names: `ssh_key`, `sshKey` and `SSH-Key` are all `sshkey`. */
export function squashed(name: string): string {
  return wordsOf(name).join('');
}

/** The singular of a noun (`categories` → `category`, `ssh_keys` → `ssh_key`), by the pluralize library. */
export function singularOf(noun: string): string {
  return pluralize.singular(noun);
}

/** The plural of a noun (`station` → `stations`). */
export function pluralOf(noun: string): string {
  return pluralize.plural(noun);
}

/** A format suffix as Rails writes them (`.json`, `.xml`), as pattern text. */
const SUFFIX = String.raw`\.[A-Za-z][A-Za-z0-9]{0,7}`;

/** A format suffix on a path's last segment, as Rails writes them (`/notes.json`, `/notes/{id}.xml`). */
export const FORMAT_SUFFIX = new RegExp(`${SUFFIX}$`);

/**
 * The part of `path` under an item path: `/archive` of `/notes/{id}/archive` for `/notes/{id}`.
 * An item path written with a trailing slash (`/notes/{id}/`, as Django writes it) has the same
 * sub-paths (`/notes/{id}/archive/`). Undefined when `path` is not under the item path.
 */
export function underItemPath(itemPath: string, path: string): string | undefined {
  const base = itemPath.endsWith('/') ? itemPath.slice(0, -1) : itemPath;
  if (!path.startsWith(`${base}/`) || path.length === base.length + 1) return undefined;
  return path.slice(base.length);
}

/** `/notes/{id}.json`: an item path with a format suffix (the path before the item, its parameter, the suffix). */
export const SUFFIXED_ITEM_PATH = new RegExp(String.raw`^(.*)\/\{([^}/]+)\}(${SUFFIX})$`);

/**
 * The static segments of a path template (`/users/{id}/ssh-keys` → `users`, `ssh-keys`), the last
 * without its format suffix (`/notes.json` → `notes`).
 */
export function staticSegments(path: string): string[] {
  const segments = path.split('/').filter((segment) => segment !== '' && !segment.includes('{'));
  const last = segments.at(-1);
  if (last !== undefined) segments[segments.length - 1] = last.replace(FORMAT_SUFFIX, '') || last;
  return segments;
}

/** The noun a collection path names: its last static segment (`/users/{id}/ssh-keys` → `ssh-keys`), if any. */
export function collectionNoun(path: string): string | undefined {
  return staticSegments(path).at(-1);
}

/**
 * Squashed names one item of a collection goes by: the singular of its path's last segment
 * (`sshkey` for `/ssh_keys`), its plural, and the same for the last word alone (`key`, `keys`)
 * when `lastWord` is set.
 */
export function itemNames(path: string, lastWord = false): string[] {
  const noun = collectionNoun(path);
  if (noun === undefined) return [];
  const words = wordsOf(noun);
  const names = [singularOf(words.join('_')), noun];
  if (lastWord && words.length > 1) names.push(singularOf(words.at(-1)!));
  return [...new Set(names.map(squashed).filter((name) => name !== ''))];
}
