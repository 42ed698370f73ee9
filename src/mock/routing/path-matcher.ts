/**
 * Matches request paths to the document's path templates as OpenAPI reads them (Paths Object):
 * a concrete path wins over a templated one (`/pets/mine` before `/pets/{petId}`); literal
 * characters beside a template are literal (`/test:{rpc}`, `/pet/a:{b}`, `/files/{name}.json`);
 * segments are compared decoded, so `/test%20path` is the documented `/test path` and a
 * parameter's value is the decoded text of its segment (`%2F` stays inside the value).
 * A path key holding a query (`/responses?beta=true`) is served at its path and preferred when
 * the request carries that query.
 */

/** One documented path with what it leads to. */
export interface PathEntry<T> {
  /** The path key as the document writes it (`/pets/{petId}`). */
  template: string;
  value: T;
}

/** A match: what the template leads to, and the path parameters by the document's names, decoded. */
export interface PathMatch<T> {
  template: string;
  value: T;
  params: Record<string, string>;
}

interface Segment {
  /** The decoded text of an all-literal segment: compared as text when case matters. */
  literal: string | undefined;
  /** The name of a segment that is one parameter alone: any non-empty text, no expression run. */
  parameter: string | undefined;
  sensitive: RegExp;
  insensitive: RegExp;
  names: string[];
  /** 0 literal, 1 literal text beside a parameter, 2 a parameter alone: how concrete the segment is. */
  rank: 0 | 1 | 2;
  literalLength: number;
}

interface CompiledTemplate<T> {
  entry: PathEntry<T>;
  segments: Segment[];
  /** `?beta=true` of a path key: pairs the request's query must carry for this template to be preferred. */
  query: [string, string][];
  order: number;
}

/** Query pairs a request carries, for path keys that hold a query. */
export type QueryLookup = (name: string) => string | string[] | undefined;

const TEMPLATE_PART = /(\{[^{}]+\})/;

/** `%41` → `A`; text that is not valid percent-encoding stays as it is. */
export function decodeSegment(text: string): string {
  if (!text.includes('%')) return text;
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function compileSegment(text: string): Segment {
  const names: string[] = [];
  let literalLength = 0;
  const source = text
    .split(TEMPLATE_PART)
    .map((part) => {
      const name = /^\{([^{}]+)\}$/.exec(part)?.[1];
      if (name === undefined) {
        const literal = decodeSegment(part);
        literalLength += literal.length;
        return escapeRegExp(literal);
      }
      names.push(name);
      // Lazy when literal text follows (`{name}.json`), so the suffix is not swallowed.
      return '(.+?)';
    })
    .join('');
  const rank = names.length === 0 ? 0 : literalLength > 0 ? 1 : 2;
  return {
    literal: rank === 0 ? decodeSegment(text) : undefined,
    parameter: rank === 2 && names.length === 1 ? names[0] : undefined,
    sensitive: new RegExp(`^${source}$`, 's'),
    insensitive: new RegExp(`^${source}$`, 'is'),
    names,
    rank,
    literalLength,
  };
}

/** `/a/b/` → `['a', 'b']`; the root is no segment at all. */
function segmentsOf(path: string): string[] {
  const trimmed = path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
  return trimmed === '/' || trimmed === '' ? [] : trimmed.slice(1).split('/');
}

/** Negative when `a` is the more concrete template: segment by segment, then query constraints, then document order. */
function byConcreteness<T>(a: CompiledTemplate<T>, b: CompiledTemplate<T>): number {
  const count = Math.min(a.segments.length, b.segments.length);
  for (let index = 0; index < count; index += 1) {
    const difference = a.segments[index]!.rank - b.segments[index]!.rank;
    if (difference !== 0) return difference;
  }
  const literal = (template: CompiledTemplate<T>) =>
    template.segments.reduce((sum, segment) => sum + segment.literalLength, 0);
  return literal(b) - literal(a) || b.query.length - a.query.length || a.order - b.order;
}

/** The path templates of a document, most concrete first, matched against request paths. */
export class PathMatcher<T> {
  readonly #bySegments = new Map<number, CompiledTemplate<T>[]>();

  constructor(entries: readonly PathEntry<T>[]) {
    entries.forEach((entry, order) => {
      const [path = '', query = ''] = entry.template.split(/\?(.*)/s);
      const compiled: CompiledTemplate<T> = {
        entry,
        segments: segmentsOf(path).map(compileSegment),
        query: [...new URLSearchParams(query)],
        order,
      };
      const list = this.#bySegments.get(compiled.segments.length) ?? [];
      list.push(compiled);
      this.#bySegments.set(compiled.segments.length, list);
    });
    for (const list of this.#bySegments.values()) list.sort(byConcreteness);
  }

  /**
   * Every template the raw path (relative to the API's base path, still percent-encoded) matches,
   * most concrete first; templates whose query the request carries come before the others.
   * Literal text is compared case-sensitively first, then, when nothing matched, ignoring case.
   */
  match(rawPath: string, query: QueryLookup = () => undefined): PathMatch<T>[] {
    const segments = segmentsOf(rawPath);
    for (let index = 0; index < segments.length; index += 1) segments[index] = decodeSegment(segments[index]!);
    const candidates = this.#bySegments.get(segments.length);
    if (!candidates) return [];
    return this.#matches(candidates, segments, true, query) ?? this.#matches(candidates, segments, false, query) ?? [];
  }

  /** The templates that match, those whose query the request carries first; undefined when none does. */
  #matches(
    candidates: readonly CompiledTemplate<T>[],
    segments: readonly string[],
    sensitive: boolean,
    query: QueryLookup,
  ): PathMatch<T>[] | undefined {
    let found: PathMatch<T>[] | undefined;
    let later: PathMatch<T>[] | undefined;
    for (const template of candidates) {
      const params = paramsOf(template, segments, sensitive);
      if (!params) continue;
      const match = { template: template.entry.template, value: template.entry.value, params };
      if (template.query.length === 0 || carries(template.query, query)) (found ??= []).push(match);
      else (later ??= []).push(match);
    }
    if (!later) return found;
    return found ? [...found, ...later] : later;
  }
}

/** True when the request carries every `name=value` pair a path key's query names. */
function carries(pairs: readonly [string, string][], query: QueryLookup): boolean {
  return pairs.every(([name, value]) => {
    const sent = query(name);
    return Array.isArray(sent) ? sent.includes(value) : sent === value;
  });
}

function paramsOf<T>(
  template: CompiledTemplate<T>,
  segments: readonly string[],
  sensitive: boolean,
): Record<string, string> | undefined {
  const params: Record<string, string> = {};
  for (let index = 0; index < segments.length; index += 1) {
    const segment = template.segments[index]!;
    const text = segments[index]!;
    // Most segments are all literal or one parameter alone: compared as text, no expression run.
    if (sensitive && segment.literal !== undefined) {
      if (text !== segment.literal) return undefined;
      continue;
    }
    if (segment.parameter !== undefined) {
      if (text === '') return undefined;
      params[segment.parameter] = text;
      continue;
    }
    const found = (sensitive ? segment.sensitive : segment.insensitive).exec(text);
    if (!found) return undefined;
    for (let at = 0; at < segment.names.length; at += 1) params[segment.names[at]!] = found[at + 1]!;
  }
  return params;
}
