import { matchedTemplateSegments } from '../prepare/link-expressions.js';
import type { PlannedOperation } from '../prepare/plan.js';
import type { Exchange } from '../types.js';
import { idOf } from './ids.js';
import { jsonBody } from './response-body.js';

/**
 * The item path a create's Location names its item by, when the path's parameter is the items'
 * key (`/tasks/{id}` for `id`): a create documented without a body can still say what it made.
 */
export function locatedItemPath(create: PlannedOperation): string | undefined {
  const resource = create.resource;
  if (!resource?.itemPath || !resource.itemParameter || !create.idProperty) return undefined;
  const templates = resource.itemPath.split('/').filter((segment) => segment.includes('{')).length;
  return resource.key?.property === create.idProperty && templates === 1 + resource.parentParameters.length
    ? resource.itemPath
    : undefined;
}

/** The key a Location names against an item path (`/v1/tasks/7` against `/tasks/{id}` → "7"). */
function keyInLocation(location: string, base: string, itemPath: string, itemParameter: string): string | undefined {
  try {
    const segment = matchedTemplateSegments(new URL(location, base).pathname, itemPath)?.get(itemParameter);
    // `{id}.json` is no whole segment, so it is not read back from a URL here.
    return segment === undefined || segment === '' ? undefined : decodeURIComponent(segment);
  } catch {
    return undefined; // a Location that is no URL, or a key that is not percent-encoded text
  }
}

/**
 * The key of the item a create made: its answer's key property, else, for a create whose answer
 * documents no item, the key its Location names. A number-typed key read from a URL is a number.
 */
export function createdKeyOf(create: PlannedOperation, exchange: Exchange): unknown {
  const fromBody = create.idProperty ? idOf(jsonBody(exchange), create.idProperty) : undefined;
  if (fromBody !== undefined || create.returnsItem) return fromBody;
  const location = exchange.response?.headers.location;
  const itemPath = locatedItemPath(create);
  if (!location || !itemPath) return undefined;
  const key = keyInLocation(location, exchange.request.url, itemPath, create.resource!.itemParameter!);
  if (key === undefined) return undefined;
  return create.resource!.key?.kind === 'integer' && /^-?\d+$/.test(key) ? Number(key) : key;
}
