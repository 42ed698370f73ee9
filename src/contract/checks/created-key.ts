import type { CheckPlan, PlannedOperation } from '../prepare/plan.js';
import type { Exchange } from '../types.js';
import { idOf } from './ids.js';
import { jsonBody } from './response-body.js';

/**
 * The item path a create's Location names its item by, when the path's parameter is the items'
 * key (`/tasks/{id}` for `id`): a create documented without a body can still say what it made.
 */
export function locatedItemPath(plan: CheckPlan, create: PlannedOperation): string | undefined {
  const resource = plan.model.resources.find((candidate) => candidate.path === create.collection);
  if (!resource?.itemPath || !resource.itemParameter || !create.idProperty) return undefined;
  const templates = resource.itemPath.split('/').filter((segment) => segment.includes('{')).length;
  return resource.key?.property === create.idProperty && templates === 1 + resource.parentParameters.length
    ? resource.itemPath
    : undefined;
}

/** The key a Location names against an item path (`/v1/tasks/7` against `/tasks/{id}` → "7"). */
function keyInLocation(location: string, base: string, itemPath: string): string | undefined {
  let pathname: string;
  try {
    pathname = new URL(location, base).pathname;
  } catch {
    return undefined;
  }
  const template = itemPath.split('/').filter((part) => part !== '');
  const segments = pathname.split('/').slice(-template.length);
  if (segments.length !== template.length) return undefined;
  let key: string | undefined;
  for (const [index, part] of template.entries()) {
    const segment = segments[index]!;
    if (!part.includes('{')) {
      if (part !== segment) return undefined;
    } else if (index === template.length - 1) {
      if (!/^\{[^}]+\}$/.test(part)) return undefined; // `{id}.json`: not read back from a URL here
      key = decodeURIComponent(segment);
    }
  }
  return key === '' ? undefined : key;
}

/**
 * The key of the item a create made: its answer's key property, else, for a create whose answer
 * documents no item, the key its Location names. A number-typed key read from a URL is a number.
 */
export function createdKeyOf(plan: CheckPlan, create: PlannedOperation, exchange: Exchange): unknown {
  const fromBody = create.idProperty ? idOf(jsonBody(exchange), create.idProperty) : undefined;
  if (fromBody !== undefined || create.returnsItem) return fromBody;
  const location = exchange.response?.headers.location;
  const itemPath = locatedItemPath(plan, create);
  if (!location || !itemPath) return undefined;
  const key = keyInLocation(location, exchange.request.url, itemPath);
  if (key === undefined) return undefined;
  const kind = plan.model.resources.find((resource) => resource.path === create.collection)?.key?.kind;
  return kind === 'integer' && /^-?\d+$/.test(key) ? Number(key) : key;
}
