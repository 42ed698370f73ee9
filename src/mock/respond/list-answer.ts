import { sampleOf } from '../../openapi/generate.js';
import type { ResourceList } from '../../openapi/resource-model.js';
import type { RequestContext, RequestInput } from '../../http/responder.js';
import type { StoredRecord } from '../../store/tenant-collection.js';
import { envelopeSiblings } from './envelope-siblings.js';
import { linkHeader, needsTotal, pageUrl, pageWindow, pagingQuery, type AnsweredPage } from './list-page.js';
import { listJson, type ItemView } from './resource-views.js';

/** How one list operation is answered from the items a store lists. */
export interface ListAnswer {
  /** How many items to ask the store for (Infinity: all that match). */
  fetchCount(input: RequestInput, request: RequestContext): number;
  respond(found: readonly StoredRecord[], input: RequestInput, request: RequestContext): ListResponse;
}

export interface ListResponse {
  json: string;
  headers?: Record<string, string>;
}

/** A list with nothing to page (a bare array, or an envelope without paging fields): the store's first `limit` items. */
function plainAnswer(list: ResourceList, view: ItemView): ListAnswer {
  const siblings = Object.fromEntries(
    list.siblings.filter((sibling) => sibling.required).map((sibling) => [sibling.name, sampleOf(sibling.schema)]),
  );
  // The last page written and its text: the same records again (a collection unchanged since)
  // get the same text, not a fresh join of every item's. Records are immutable (a change makes a
  // new one), so the same records mean the same text; the kept text is shared, not copied.
  let last: { found: readonly StoredRecord[]; json: string } | undefined;
  return {
    fetchCount: (input, request) => pageWindow(list, pagingQuery(list, input, request)).limit,
    respond: (found) => {
      if (!last || !sameRecords(last.found, found))
        last = { found, json: listJson(found, view, list.wrapper, siblings) };
      return { json: last.json };
    },
  };
}

function sameRecords(a: readonly StoredRecord[], b: readonly StoredRecord[]): boolean {
  if (a.length !== b.length) return false;
  for (let index = 0; index < a.length; index += 1) if (a[index] !== b[index]) return false;
  return true;
}

/**
 * How a list is answered: its envelope holds the page's real links (`self`, `next`, `prev`,
 * `first`, `last` pointing at pages of the mock), cursors, counts and `has_more`; the page
 * parameter (number, offset or cursor) and the limit are honoured; a documented `Link` header is
 * sent. Lists with nothing to page keep the fast path: the store's first `limit` items.
 */
export function listAnswer(list: ResourceList, view: ItemView, basePath: string): ListAnswer {
  const { pagination } = list;
  if (!pagination.parameter && pagination.fields.length === 0 && !pagination.linkHeader) return plainAnswer(list, view);
  const everything = needsTotal(list) || pagination.next?.kind === 'after-last';
  const fetchCount = (input: RequestInput, request: RequestContext): number => {
    if (everything) return Infinity;
    const window = pageWindow(list, pagingQuery(list, input, request));
    return window.offset + window.limit + 1;
  };
  return {
    fetchCount,
    respond(found, input, request) {
      const window = pageWindow(list, pagingQuery(list, input, request), (key) => {
        const index = found.findIndex((stored) => stored.key === key);
        return index < 0 ? undefined : index;
      });
      const items = found.slice(window.offset, window.offset + window.limit);
      const page: AnsweredPage = {
        ...window,
        count: items.length,
        total: everything ? found.length : undefined,
        more: found.length > window.offset + items.length,
        lastKey: items.at(-1)?.key,
      };
      const url = pageUrl(basePath, request);
      const json = listJson(items, view, list.wrapper, envelopeSiblings(list, page, url));
      const link = pagination.linkHeader ? linkHeader(list, page, url) : undefined;
      return link ? { json, headers: { Link: link } } : { json };
    },
  };
}
