import type { EnvelopeProperty, ListShape } from './list-envelope.js';
import { squashed } from './naming.js';
import type { JsonSchema } from './openapi-types.js';
import type { OperationResponse } from './operations.js';
import type { ResolvedParameter } from './resource-list.js';
import { isObjectSchema, objectShape, primaryType, typesOf } from './schema-shape.js';

/** How a list request names its page: a page number, an item offset, or an opaque cursor. */
export type PageParameterKind = 'page' | 'offset' | 'cursor';

/** The query parameter that chooses the page of a list. */
export interface PageParameter {
  name: string;
  kind: PageParameterKind;
  /** The first page's number (the schema's minimum or default, else 1) for `page`; 0 for `offset`. */
  first: number;
}

/** What a field of a list envelope means for paging. */
export type PageFieldMeaning =
  | 'self'
  | 'next'
  | 'prev'
  | 'first'
  | 'last'
  | 'nextToken'
  | 'prevToken'
  | 'total'
  | 'pages'
  | 'page'
  | 'limit'
  | 'offset'
  | 'hasMore';

/** A paging field of the envelope: where it is (`links`, `next`, and `href` for a link object) and what it means. */
export interface PageField {
  path: string[];
  meaning: PageFieldMeaning;
}

/** How a client finds the next page of a list. */
export type NextPage =
  /** A URL in the body (`links.next`, `next`, `_links.next.href`), absolute or relative to the request. */
  | { kind: 'link'; path: string[] }
  /** A `Link: <…>; rel="next"` header, documented on the list's response. */
  | { kind: 'header' }
  /** A token in the body (`next_cursor`, `nextPageToken`) sent back in the cursor parameter. */
  | { kind: 'token'; path: string[]; parameter: string }
  /** A flag (`has_more`) while the cursor parameter takes the last item's key (`starting_after`). */
  | { kind: 'after-last'; flag: string[]; parameter: string }
  /** Nothing in the answer: the next page number or offset, while pages come back full. */
  | { kind: 'counter'; parameter: string; step: 'page' | 'offset' };

/** Paging of one list operation: the request's page parameter, the envelope's fields and how to go on. */
export interface Pagination {
  parameter: PageParameter | undefined;
  fields: PageField[];
  next: NextPage | undefined;
  /** The response documents a `Link` header. */
  linkHeader: boolean;
}

const PAGE_NAMES = /^(page|pagenumber|pagenum|pageno|pageindex|p|pg)$/;
const OFFSET_NAMES = /^(offset|skip|start|startindex|startat)$/;
const CURSOR_NAMES =
  /^(cursor|after|aftercursor|pagetoken|pagecursor|nexttoken|nextcursor|continuation|continuationtoken|startingafter|marker|next|since|sinceid|startcursor)$/;

/** Containers of paging fields inside an envelope (`links`, `meta`, `pagination`). */
const CONTAINERS = /^_?(links|link|meta|metadata|pagination|paging|pageinfo|page|cursor|cursors)$/;

const FIELD_NAMES: [RegExp, PageFieldMeaning, 'string' | 'integer' | 'boolean' | 'link'][] = [
  [/^(self|current|selfurl|currenturl)$/, 'self', 'link'],
  [/^(next|nexturl|nextlink|nexthref|nextpageurl|odatanextlink)$/, 'next', 'link'],
  [/^(prev|previous|prevurl|previousurl|prevlink|previouslink|prevpageurl|previouspageurl)$/, 'prev', 'link'],
  [/^(first|firsturl|firstpageurl|firstlink)$/, 'first', 'link'],
  [/^(last|lasturl|lastpageurl|lastlink)$/, 'last', 'link'],
  [
    /^(nextcursor|nextpagetoken|nexttoken|nextpagecursor|continuationtoken|endcursor|after|cursornext)$/,
    'nextToken',
    'string',
  ],
  [/^(prevcursor|previouscursor|prevpagetoken|previouspagetoken|prevtoken|startcursor|before)$/, 'prevToken', 'string'],
  [
    /^(total|totalcount|totalitems|totalresults|totalentries|totalrecords|totalelements|count|totalsize)$/,
    'total',
    'integer',
  ],
  [/^(totalpages|pagecount|pages|lastpage|numpages)$/, 'pages', 'integer'],
  [/^(page|currentpage|pagenumber|pageindex)$/, 'page', 'integer'],
  [/^(limit|perpage|pagesize|size)$/, 'limit', 'integer'],
  [/^(offset|skip|start)$/, 'offset', 'integer'],
  [/^(hasmore|hasnext|hasnextpage|more)$/, 'hasMore', 'boolean'],
];

function kindOfParameter(parameter: ResolvedParameter): PageParameterKind | undefined {
  if (parameter.in !== 'query') return undefined;
  const name = squashed(parameter.name);
  const type = primaryType(parameter.resolved);
  if ((type === 'integer' || type === 'number') && PAGE_NAMES.test(name)) return 'page';
  if ((type === 'integer' || type === 'number') && OFFSET_NAMES.test(name)) return 'offset';
  // `after` and `since` with a date format are a time filter, not a cursor.
  const format = typeof parameter.resolved === 'object' ? parameter.resolved.format : undefined;
  const dated = format === 'date' || format === 'date-time';
  if ((type === 'string' || type === undefined) && !dated && CURSOR_NAMES.test(name)) return 'cursor';
  return undefined;
}

/** The list's page parameter: a page number, an offset or a cursor (the first one the operation declares). */
export function pageParameterOf(parameters: readonly ResolvedParameter[]): PageParameter | undefined {
  for (const parameter of parameters) {
    const kind = kindOfParameter(parameter);
    if (!kind) continue;
    const schema = typeof parameter.resolved === 'object' ? parameter.resolved : {};
    const documented = [schema.minimum, schema.default].find((value): value is number => typeof value === 'number');
    const zeroBased = /\b(zero|0)[- ]based\b|\b(starts?|starting) (at|from) 0\b/i.test(parameter.description ?? '');
    const first = kind === 'page' ? (documented ?? (zeroBased ? 0 : 1)) : 0;
    return { name: parameter.name, kind, first };
  }
  return undefined;
}

/** A string field is a link when its format or name says URL, or when there is no cursor it could be a token for. */
function isLinkText(name: string, schema: JsonSchema): boolean {
  const format = typeof schema === 'object' ? schema.format : undefined;
  if (format === 'uri' || format === 'uri-reference' || format === 'url' || format === 'iri') return true;
  return /url|link|href/i.test(name);
}

/**
 * A link written either way (`oneOf: [string, {href}]`, as JSON:API allows): text as far as the
 * readers go, who take a link object's `href` as well.
 */
function textOrLinkObject(schema: JsonSchema): boolean {
  const options = typeof schema === 'object' ? (schema.oneOf ?? schema.anyOf) : undefined;
  return Array.isArray(options) && options.some((option) => primaryType(option as JsonSchema) === 'string');
}

function classify(name: string, schema: JsonSchema, path: string[], cursor: boolean): PageField[] {
  const plain = squashed(name);
  const type = primaryType(schema) ?? (textOrLinkObject(schema) ? 'string' : undefined);
  for (const [pattern, meaning, wants] of FIELD_NAMES) {
    if (!pattern.test(plain)) continue;
    if (wants === 'link') {
      if (type === 'string' && (meaning !== 'next' || !cursor || isLinkText(name, schema))) return [{ path, meaning }];
      // A link object (`{"href": "…"}`, HAL and JSON:API style).
      const href = objectShape(schema).properties.href;
      if (href !== undefined && primaryType(href) === 'string') return [{ path: [...path, 'href'], meaning }];
      if (meaning === 'next' && type === 'string') return [{ path, meaning: 'nextToken' }];
      continue;
    }
    if (wants === 'string' && type === 'string') return [{ path, meaning }];
    if (wants === 'integer' && (type === 'integer' || type === 'number')) return [{ path, meaning }];
    if (wants === 'boolean' && type === 'boolean') return [{ path, meaning }];
  }
  return [];
}

/** Paging fields of an envelope: its own properties and those of its `links`/`meta`/`pagination` objects. */
export function pageFieldsOf(siblings: readonly EnvelopeProperty[], cursor: boolean): PageField[] {
  const fields: PageField[] = [];
  for (const sibling of siblings) {
    if (isObjectSchema(sibling.schema) && CONTAINERS.test(squashed(sibling.name))) {
      for (const [name, schema] of Object.entries(objectShape(sibling.schema).properties))
        fields.push(...classify(name, schema, [sibling.name, name], cursor));
    } else fields.push(...classify(sibling.name, sibling.schema, [sibling.name], cursor));
  }
  return fields;
}

/** The schema admits null (`type: [string, 'null']` or 3.0's `nullable`). */
export function allowsNull(schema: JsonSchema | undefined): boolean {
  return typesOf(schema).includes('null') || (typeof schema === 'object' && schema.nullable === true);
}

/**
 * True when the envelope may leave a paging field out or null (`links.prev` not required, or
 * nullable): the document's way of saying "there is none", as on the first page.
 */
export function mayBeAbsent(siblings: readonly EnvelopeProperty[], field: PageField): boolean {
  const sibling = siblings.find((candidate) => candidate.name === field.path[0]);
  if (!sibling) return true;
  if (field.path.length === 1) return !sibling.required || allowsNull(sibling.schema);
  const { properties, required } = objectShape(sibling.schema);
  const name = field.path[1]!;
  return !required.includes(name) || allowsNull(properties[name]);
}

/** True when a documented 2xx response of the list declares a `Link` header. */
function documentsLinkHeader(responses: readonly OperationResponse[]): boolean {
  return responses
    .filter((response) => /^2\d\d$/.test(response.status))
    .some((response) => [...response.headers.keys()].some((name) => name.toLowerCase() === 'link'));
}

function nextOf(fields: readonly PageField[], parameter: PageParameter | undefined, linkHeader: boolean) {
  const find = (meaning: PageFieldMeaning) => fields.find((field) => field.meaning === meaning);
  const link = find('next');
  if (link) return { kind: 'link', path: link.path } as const;
  const token = find('nextToken');
  if (token && parameter?.kind === 'cursor')
    return { kind: 'token', path: token.path, parameter: parameter.name } as const;
  if (linkHeader) return { kind: 'header' } as const;
  const more = find('hasMore');
  if (more && parameter?.kind === 'cursor')
    return { kind: 'after-last', flag: more.path, parameter: parameter.name } as const;
  if (parameter && parameter.kind !== 'cursor')
    return { kind: 'counter', parameter: parameter.name, step: parameter.kind } as const;
  return undefined;
}

/** How a list pages: from its parameters, its envelope and its documented headers. */
export function paginationOf(
  shape: ListShape,
  parameters: readonly ResolvedParameter[],
  responses: readonly OperationResponse[],
): Pagination {
  const parameter = pageParameterOf(parameters);
  const fields = pageFieldsOf(shape.siblings, parameter?.kind === 'cursor');
  const linkHeader = documentsLinkHeader(responses);
  return { parameter, fields, next: nextOf(fields, parameter, linkHeader), linkHeader };
}
