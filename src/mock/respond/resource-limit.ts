import { parseJson, stringifyJson } from '../../core/json.js';
import { inRange } from '../../openapi/range-filters.js';
import { nestedValue } from '../../openapi/resource-list.js';
import type { ResourceList } from '../../openapi/resource-model.js';
import { rangesAsked } from './range-answers.js';
import type { HttpResponse } from '../../http/http-response.js';
import type { RequestContext, RequestInput } from '../../http/responder.js';
import { envelopeSiblings } from './envelope-siblings.js';
import { linkHeader, pageWindow, pageUrl, pagingQuery, type AnsweredPage } from './list-page.js';

type Holder = Record<string, unknown>;

/**
 * A list answered by Prism (a collection kennel keeps no state for) still pages like one: the
 * example or generated items are filtered as the request asks (enum, string and boolean filters, ranges),
 * cut to the page it asks for (its limit, page number, offset or cursor), and the envelope's links,
 * cursors and counts describe that page of those items (no next page past them). Anything that is
 * not the documented list shape passes unchanged.
 */
export function limitedList(
  response: HttpResponse,
  list: ResourceList,
  input: RequestInput,
  request: RequestContext,
  basePath: string,
): HttpResponse {
  if (response.json === undefined || response.status >= 300) return response;
  const parsed = parseJson(response.json);
  if (!parsed.ok) return response;
  const { value } = parsed;
  const holder = list.wrapper === undefined ? undefined : (value as Holder | null);
  const listed = holder ? holder[list.wrapper!] : value;
  if (!Array.isArray(listed)) return response;
  const ranges = rangesAsked(list, input);
  // The documented filters hold here too: only items whose property equals the value asked for.
  const items = listed.filter(
    (item) =>
      list.filters.every((filter) => {
        const asked = input.query[filter.name];
        return asked === undefined || (item as Holder | null)?.[filter.property] === asked;
      }) &&
      list.nestedFilters.every((filter) => {
        const asked = input.query[filter.name];
        return asked === undefined || nestedValue(item, filter.path) === asked;
      }) &&
      ranges.every(({ filter, operand }) => inRange((item as Holder | null)?.[filter.property], filter, operand)),
  );
  const window = pageWindow(list, pagingQuery(list, input, request), (key) => {
    const index = items.findIndex((item) => String((item as Holder | null)?.id) === key);
    return index < 0 ? undefined : index;
  });
  const cut = items.slice(window.offset, window.offset + window.limit);
  const page: AnsweredPage = {
    ...window,
    count: cut.length,
    total: items.length,
    more: items.length > window.offset + cut.length,
    lastKey: (cut.at(-1) as Holder | undefined)?.id === undefined ? undefined : String((cut.at(-1) as Holder).id),
  };
  const url = pageUrl(basePath, request);
  // The example's own paging fields (a sample cursor, its counts) describe no page of the mock: replaced.
  const paging = new Set(list.pagination.fields.map((field) => field.path[0]));
  const rest = holder ? Object.fromEntries(Object.entries(holder).filter(([name]) => !paging.has(name))) : undefined;
  const json = stringifyJson(rest ? { ...rest, [list.wrapper!]: cut, ...envelopeSiblings(list, page, url) } : cut);
  if (!list.pagination.linkHeader) return { ...response, json };
  // The documented Link header names this page's neighbours, or is left out: never a generated sample.
  const headers = Object.fromEntries(
    Object.entries(response.headers ?? {}).filter(([name]) => name.toLowerCase() !== 'link'),
  );
  const link = linkHeader(list, page, url);
  return { ...response, json, headers: link ? { ...headers, Link: link } : headers };
}
