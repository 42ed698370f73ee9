import type { Severity } from '../../contract/types.js';

/** One way an exchange breaks the document, as proxy mode reports it (header, journal, log, summary). */
export interface Violation {
  /** Which half of the exchange breaks the document. */
  location: 'request' | 'response' | 'upstream';
  /** The rule broken: a contract check's name (`response-schema-conformance`) or a request rule. */
  rule: string;
  severity: Severity;
  /** One line: what is wrong, credentials redacted. */
  message: string;
  /** JSON pointer into the body, when the rule names one. */
  pointer?: string;
}

/** The response header that carries an exchange's violations (Prism calls its own `sl-violations`). */
export const VIOLATIONS_HEADER = 'Kennel-Violations';
/** Longest header value written: proxies and clients commonly refuse header blocks past 8 KB. */
export const MAX_HEADER_CHARS = 4096;
/** Violations kept per exchange: a body of 10,000 wrong items is one fault, not 10,000 lines to keep. */
export const MAX_VIOLATIONS = 20;
/** Longest message kept. */
const MAX_MESSAGE = 300;

/** `violations` capped in number and message length, saying how many were left out. */
export function capViolations(violations: readonly Violation[]): Violation[] {
  const kept = violations.slice(0, MAX_VIOLATIONS).map((violation) => ({
    ...violation,
    message: violation.message.length > MAX_MESSAGE ? `${violation.message.slice(0, MAX_MESSAGE)}…` : violation.message,
  }));
  const left = violations.length - kept.length;
  if (left > 0)
    kept.push({ location: 'response', rule: 'more-violations', severity: 'warning', message: `${left} more not kept` });
  return kept;
}

/** JSON with every character outside printable ASCII escaped: a header value Node will always write. */
function asciiJson(value: unknown): string {
  return JSON.stringify(value).replace(
    /[^\x20-\x7e]/g,
    (character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/**
 * The `Kennel-Violations` value: a JSON array of violations, printable ASCII only (non-ASCII
 * escaped as `\uXXXX`), at most `MAX_HEADER_CHARS` long; when some do not fit, the last element
 * says how many more the journal holds.
 */
export function violationsHeader(violations: readonly Violation[]): string {
  const items = violations.map((violation) => asciiJson(violation));
  let kept = items.length;
  const render = (count: number): string => {
    const more = items.length - count;
    const tail = more > 0 ? [asciiJson({ rule: 'more-violations', message: `${more} more in the journal` })] : [];
    return `[${[...items.slice(0, count), ...tail].join(',')}]`;
  };
  let header = render(kept);
  while (header.length > MAX_HEADER_CHARS && kept > 0) header = render(--kept);
  return header;
}
