import { parseJson, stringifyJson } from '../core/json.js';
import { inRange } from '../openapi/range-filters.js';
import type { ResourceList } from '../openapi/resource-model.js';
import { rangesAsked } from './range-answers.js';
import type { HttpResponse } from '../http/http-response.js';
import type { RequestInput } from '../http/responder.js';

/**
 * A list answered by Prism (a collection kennel keeps no state for) still honours the documented
 * filters, ranges and limit parameter: the example or generated items that do not match a filter sent are
 * left out, then the rest cut to at most `limit`. Anything that is not the documented list shape
 * passes unchanged.
 */
export function limitedList(response: HttpResponse, list: ResourceList, input: RequestInput): HttpResponse {
  const asked = list.limit ? input.query[list.limit.name] : undefined;
  const filters = list.filters.flatMap((filter) =>
    input.query[filter.name] === undefined ? [] : [[filter.property, input.query[filter.name]] as const],
  );
  const ranges = rangesAsked(list, input);
  if (typeof asked !== 'number' && filters.length === 0 && ranges.length === 0) return response;
  if (response.json === undefined || response.status >= 300) return response;
  const parsed = parseJson(response.json);
  if (!parsed.ok) return response;
  const { value } = parsed;
  const holder = list.wrapper === undefined ? undefined : (value as Record<string, unknown> | null);
  const items = holder ? holder[list.wrapper!] : value;
  if (!Array.isArray(items)) return response;
  const matching = items.filter(
    (item) =>
      filters.every(([property, wanted]) => item !== null && typeof item === 'object' && item[property] === wanted) &&
      ranges.every(
        ({ filter, operand }) =>
          item === null ||
          typeof item !== 'object' ||
          inRange((item as Record<string, unknown>)[filter.property], filter, operand),
      ),
  );
  const cut = typeof asked === 'number' ? matching.slice(0, asked) : matching;
  if (cut.length === items.length) return response;
  const json = stringifyJson(holder ? { ...holder, [list.wrapper!]: cut } : cut);
  return { ...response, json };
}
