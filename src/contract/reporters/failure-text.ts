import { curlCommand } from '../request-builder.js';
import type { CheckFailure } from '../types.js';

/** The lines that explain one failure: expected vs actual, the JSON pointer, and how to replay it. */
export function failureDetails(failure: CheckFailure, apiKey: string): string[] {
  const lines: string[] = [];
  if (failure.expected !== undefined) lines.push(`expected: ${failure.expected}`);
  if (failure.actual !== undefined) lines.push(`actual:   ${failure.actual}`);
  if (failure.pointer !== undefined) lines.push(`at:       ${failure.pointer || '(root)'}`);
  if (failure.exchange) {
    lines.push(`request:  ${failure.exchange.purpose}`);
    lines.push(`replay:   ${curlCommand(failure.exchange.request, apiKey)}`);
  }
  const occurrences = (failure as { occurrences?: number }).occurrences;
  if (occurrences !== undefined && occurrences > 1) lines.push(`seen:     ${occurrences} times`);
  return lines;
}
