import { parseJson, stringifyJson } from '../core/json.js';
import type { ResourceList } from '../openapi/resource-model.js';
import type { HttpResponse } from '../http/http-response.js';
import type { RequestInput } from '../http/responder.js';

/**
 * A list answered by Prism (a collection kennel keeps no state for) still honours the documented
 * limit parameter: the example or generated items are cut to at most `limit`. Anything that is
 * not the documented list shape passes unchanged.
 */
export function limitedList(response: HttpResponse, list: ResourceList, input: RequestInput): HttpResponse {
  const asked = list.limit ? input.query[list.limit.name] : undefined;
  if (typeof asked !== 'number' || response.json === undefined || response.status >= 300) return response;
  const parsed = parseJson(response.json);
  if (!parsed.ok) return response;
  const { value } = parsed;
  const holder = list.wrapper === undefined ? undefined : (value as Record<string, unknown> | null);
  const items = holder ? holder[list.wrapper!] : value;
  if (!Array.isArray(items) || items.length <= asked) return response;
  const cut = items.slice(0, asked);
  const json = stringifyJson(holder ? { ...holder, [list.wrapper!]: cut } : cut);
  return { ...response, json };
}
