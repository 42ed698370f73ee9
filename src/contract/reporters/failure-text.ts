import { curlCommand } from '../prepare/request-builder.js';
import type { CheckFailure, Finding, ReceivedResponse } from '../types.js';
import { printable } from '../../core/printable.js';

export { printable };

/** Characters of a response body shown in the console and JUnit reports. */
export const BODY_EXCERPT = 160;

/** Characters of each other title of a finding shown on its `seen:` line. */
const ALSO_SEEN_TITLE = 100;

/** `200 application/json, 12,345 bytes: [{"id":"1",…` — what came back, in one short line. */
export function responseExcerpt(response: ReceivedResponse, max = BODY_EXCERPT): string {
  const size = response.size ?? response.text.length;
  const type = response.headers['content-type'] ?? 'no Content-Type';
  const head = `${response.status} ${printable(type)}, ${size.toLocaleString('en-US')} bytes`;
  if (size === 0 || response.text === '') return head;
  const body = printable(response.text.slice(0, max + 1));
  return `${head}: ${body.length > max || size > max ? `${body.slice(0, max)}…` : body}`;
}

/** The lines that explain one finding: expected vs actual, where, what came back, and how to replay it. */
export function failureDetails(failure: CheckFailure | Finding, apiKey: string): string[] {
  const lines: string[] = [];
  const found = 'found' in failure ? failure.found : undefined;
  if (failure.pointer !== undefined) {
    const pattern = 'pointerPattern' in failure ? failure.pointerPattern : undefined;
    const occurrences = 'occurrences' in failure ? failure.occurrences : 1;
    const first = failure.pointer || '(root)';
    lines.push(
      `at:       ${pattern !== undefined && pattern !== failure.pointer && occurrences > 1 ? `${pattern || '(root)'} (first at ${first})` : first}`,
    );
  }
  if (failure.expected !== undefined) lines.push(`expected: ${printable(failure.expected)}`);
  // With a pointer, the value there says more than the whole body (which the response line shows).
  if (found !== undefined) lines.push(`found:    ${printable(found)}`);
  else if (failure.actual !== undefined) lines.push(`actual:   ${printable(failure.actual)}`);
  if (failure.exchange) {
    if (failure.exchange.response) lines.push(`response: ${responseExcerpt(failure.exchange.response)}`);
    lines.push(`request:  ${printable(failure.exchange.purpose)}`);
    lines.push(`replay:   ${curlCommand(failure.exchange.request, apiKey)}`);
  }
  if ('occurrences' in failure && failure.occurrences > 1) {
    const clip = (title: string) => (title.length > ALSO_SEEN_TITLE ? `${title.slice(0, ALSO_SEEN_TITLE)}…` : title);
    const also =
      failure.alsoSeen.length > 0
        ? `; also: ${failure.alsoSeen.map((title) => printable(clip(title))).join(' | ')}`
        : '';
    lines.push(`seen:     ${failure.occurrences} times${also}`);
  }
  return lines;
}
