import { stringifyJson } from '../../core/json.js';
import type { CheckFailure, Exchange, Finding, Severity } from '../types.js';

/** What one case (a check on an operation) keeps of its failures, at most. */
export const FINDING_BOUNDS = {
  /** Unique findings kept per case; later new ones are only counted. */
  perCase: 100,
  /** Other titles remembered per finding. */
  alsoSeen: 3,
  /** Characters of a response body kept with a finding's example. */
  responseExcerpt: 4096,
  /** Characters of a request body kept with a finding's example. */
  requestBody: 65_536,
  /** Characters of a finding's `expected`, `actual` and titles. */
  text: 2000,
} as const;

/** `/0/id` → `/*` + `/id`: every all-digit segment of a JSON pointer (an array index) becomes `*`. */
export function normalisePointer(pointer: string): string {
  return pointer.replace(/\/\d+(?=\/|$)/g, '/*');
}

/** A title with its numbers and JSON pointer indices masked, to tell "the same words" apart from news. */
function titleShape(title: string): string {
  return normalisePointer(title).replace(/\d+/g, '#');
}

/** The answer an exchange got, as grouping sees it: the status, or the kind of network failure. */
function outcome(exchange: Exchange | undefined): string {
  if (!exchange) return '';
  return exchange.response
    ? String(exchange.response.status)
    : `no response: ${(exchange.error ?? '').replace(/\d+/g, '#')}`;
}

/**
 * Failures with the same key are one finding: the same check, operation and severity, then the
 * check's own `group` when it sets one, else the operation that answered, its status (or network
 * failure) and the JSON pointer with indices as `*`. A failure with neither an exchange nor a
 * pointer is grouped by its title's words.
 */
export function findingKey(failure: CheckFailure): string {
  const signature =
    failure.group ??
    [
      failure.exchange?.operation.id ?? '',
      outcome(failure.exchange),
      failure.pointer !== undefined
        ? normalisePointer(failure.pointer)
        : failure.exchange
          ? ''
          : titleShape(failure.title),
    ].join(' ');
  return [failure.check, failure.operationId, failure.severity, signature].join('\u0000');
}

/** The value at an instance pointer (`/0/id`) of a parsed body, reading own properties only. */
function valueAtPointer(root: unknown, pointer: string): { found: boolean; value?: unknown } {
  let node = root;
  for (const raw of pointer.split('/').slice(1)) {
    const token = raw.replaceAll('~1', '/').replaceAll('~0', '~');
    if (node === null || typeof node !== 'object' || !Object.hasOwn(node, token)) return { found: false };
    node = (node as Record<string, unknown>)[token];
  }
  return { found: true, value: node };
}

/** What the body holds at the failure's pointer, short: `"1"`, or `(absent)`. */
function foundAt(failure: CheckFailure): string | undefined {
  const json = failure.exchange?.response?.json;
  if (failure.pointer === undefined || !json?.ok) return undefined;
  const at = valueAtPointer(json.value, failure.pointer);
  return at.found ? clip(stringifyJson(at.value), 200) : '(absent)';
}

function clip(text: string | undefined, max: number = FINDING_BOUNDS.text): string | undefined {
  return text === undefined || text.length <= max ? text : `${text.slice(0, max)}…`;
}

/**
 * What a finding keeps of an exchange: the request, the status and headers, and an excerpt of the
 * body (never the parsed value), so that keeping examples costs kilobytes whatever the server sent.
 */
export function compactExchange(exchange: Exchange): Exchange {
  const { request, response } = exchange;
  return {
    ...exchange,
    request: { ...request, body: clip(request.body, FINDING_BOUNDS.requestBody) },
    response: response && {
      status: response.status,
      headers: response.headers,
      text: response.text.slice(0, FINDING_BOUNDS.responseExcerpt),
      json: undefined,
      size: response.size ?? Buffer.byteLength(response.text),
    },
  };
}

/** The unique findings of one case, built as failures arrive; bounded (FINDING_BOUNDS). */
export class FindingSet {
  readonly findings: Finding[] = [];
  /** Failures seen in all, including those folded into findings and those not kept. */
  failures = 0;
  /** Failures of findings beyond `FINDING_BOUNDS.perCase`, counted by severity but not kept. */
  readonly omitted: Record<Severity, number> = { error: 0, warning: 0 };
  readonly #byKey = new Map<string, { finding: Finding; shapes: Set<string> }>();

  /** Adds a failure; returns the finding when it is a new one, undefined when it joined one (or was not kept). */
  add(failure: CheckFailure): Finding | undefined {
    this.failures += 1;
    const key = findingKey(failure);
    const known = this.#byKey.get(key);
    if (known) {
      known.finding.occurrences += 1;
      const shape = titleShape(failure.title);
      if (!known.shapes.has(shape) && known.finding.alsoSeen.length < FINDING_BOUNDS.alsoSeen) {
        known.shapes.add(shape);
        known.finding.alsoSeen.push(clip(failure.title)!);
      }
      return undefined;
    }
    if (this.findings.length >= FINDING_BOUNDS.perCase) {
      this.omitted[failure.severity] += 1;
      return undefined;
    }
    const { exchange, ...rest } = failure;
    const finding: Finding = {
      ...rest,
      title: clip(failure.title)!,
      expected: clip(failure.expected),
      actual: clip(failure.actual),
      ...(exchange ? { exchange: compactExchange(exchange) } : {}),
      ...(failure.pointer !== undefined ? { pointerPattern: normalisePointer(failure.pointer) } : {}),
      ...(foundAt(failure) !== undefined ? { found: foundAt(failure) } : {}),
      occurrences: 1,
      alsoSeen: [],
    };
    for (const name of ['expected', 'actual'] as const) if (finding[name] === undefined) delete finding[name];
    this.#byKey.set(key, { finding, shapes: new Set([titleShape(failure.title)]) });
    this.findings.push(finding);
    return finding;
  }
}
