import { ProblemError } from '../../core/problem.js';
import { shorten } from '../../core/text.js';
import { essenceOf } from '../../openapi/operations.js';

/** One media range of an `Accept` header with its quality (RFC 9110 §12.5.1). */
interface AcceptRange {
  type: string;
  subtype: string;
  q: number;
}

function parseRange(part: string): AcceptRange | undefined {
  const [range, ...parameters] = part.split(';');
  const [type, subtype] = essenceOf(range ?? '').split('/');
  if (!type || !subtype) return undefined;
  let q = 1;
  for (const parameter of parameters) {
    const [name, value] = parameter.split('=').map((text) => text.trim());
    if (name?.toLowerCase() === 'q' && value !== undefined) {
      const parsed = Number(value);
      q = Number.isFinite(parsed) ? Math.min(Math.max(parsed, 0), 1) : 1;
    }
  }
  return { type, subtype, q };
}

/** How specifically `range` matches `essence` (3 exact, 2 `type/*`, 1 `*\/*`), 0 when it does not. */
function specificity(range: AcceptRange, essence: string): number {
  const [type, subtype] = essence.split('/');
  if (range.type === '*' && range.subtype === '*') return 1;
  if (range.type !== type) return 0;
  if (range.subtype === '*') return 2;
  return range.subtype === subtype ? 3 : 0;
}

/** The quality the client gives `essence`: the most specific matching range decides. */
function qualityOf(ranges: readonly AcceptRange[], essence: string): number {
  // A documented wildcard (`*/*`, `image/*`) can be served as whatever the client prefers.
  if (essence.includes('*')) return Math.max(0, ...ranges.map((range) => range.q));
  let best = 0;
  let q = 0;
  for (const range of ranges) {
    const level = specificity(range, essence);
    if (level > best) {
      best = level;
      q = range.q;
    }
  }
  return q;
}

/**
 * Picks what to send: among `offered` media types (document order), the one the `Accept` header
 * rates highest; a missing or empty header accepts anything (the first is chosen). Undefined
 * when the client accepts none of them (406).
 */
export function negotiate(accept: string | undefined, offered: readonly string[]): string | undefined {
  if (offered.length === 0) return undefined;
  if (accept === undefined || accept.trim() === '') return offered[0];
  const ranges = accept
    .split(',')
    .map(parseRange)
    .filter((range): range is AcceptRange => range !== undefined);
  if (ranges.length === 0) return offered[0];
  let chosen: string | undefined;
  let chosenQ = 0;
  for (const media of offered) {
    const q = qualityOf(ranges, essenceOf(media));
    if (q > chosenQ) {
      chosen = media;
      chosenQ = q;
    }
  }
  return chosen;
}

/** True for `application/problem+json` (RFC 9457), whatever its parameters. */
export function isProblemJson(mediaType: string): boolean {
  return essenceOf(mediaType) === 'application/problem+json';
}

/** True for XML media types (`application/xml`, `text/xml`, `application/atom+xml`). */
export function isXmlMediaType(mediaType: string): boolean {
  const essence = essenceOf(mediaType);
  return essence === 'application/xml' || essence === 'text/xml' || essence.endsWith('+xml');
}

/** True for `text/*` media types other than XML (`text/plain`, `text/csv`, `text/html`). */
export function isTextMediaType(mediaType: string): boolean {
  return essenceOf(mediaType).startsWith('text/') && !isXmlMediaType(mediaType);
}

/**
 * The media type to answer `method path` with, among the documented `offered` ones; a 406 problem
 * naming them when the `Accept` header takes none. Undefined when the answer has no body.
 */
export function acceptableMedia(
  label: string,
  offered: readonly string[],
  accept: string | undefined,
): string | undefined {
  if (offered.length === 0) return undefined;
  const chosen = negotiate(accept, offered);
  if (chosen !== undefined) return chosen;
  throw new ProblemError(
    406,
    'not_acceptable',
    `${label} answers ${offered.join(', ')}; the Accept header (${shorten(accept ?? '', 100)}) takes none of them`,
  );
}
