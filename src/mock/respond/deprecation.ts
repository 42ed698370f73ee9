import type { LoadedDocument } from '../../openapi/load.js';
import type { Operation } from '../../openapi/operations.js';

/**
 * Headers that announce a deprecated operation: `Deprecation` (RFC 9745) from `x-deprecated-at`,
 * `Sunset` (RFC 8594) from `x-sunset`, and a `Link` to the replacement named by `x-replaced-by`.
 * RFC 9745 wants the date of deprecation: without `x-deprecated-at` (the Pet Store's document does
 * not say since when `getPet` is deprecated) no date is made up. `Sunset` and `Link` then signal it
 * alone; only an operation with neither date gets `Deprecation: @0` ("since an unstated time"),
 * so that it is signalled at all (docs/decisions.md).
 */
export function deprecationHeaders(
  operation: Operation,
  document: Pick<LoadedDocument, 'operations' | 'basePath'>,
): Record<string, string> {
  if (!operation.deprecated) return {};
  const headers: Record<string, string> = {};
  const since = epochSeconds(operation.extensions['x-deprecated-at']);
  const sunset = epochSeconds(operation.extensions['x-sunset']);
  if (since !== undefined || sunset === undefined) headers.Deprecation = `@${since ?? 0}`;
  if (sunset !== undefined) headers.Sunset = new Date(sunset * 1000).toUTCString();
  const replacement = replacementOf(operation, document.operations);
  if (replacement) headers.Link = `<${document.basePath}${replacement.path}>; rel="successor-version"`;
  return headers;
}

function epochSeconds(value: unknown): number | undefined {
  if (typeof value !== 'string' && !(value instanceof Date)) return undefined;
  const time = new Date(value).getTime();
  return Number.isNaN(time) ? undefined : Math.floor(time / 1000);
}

/** The removal instant a deprecated operation's `x-sunset` gives, in epoch milliseconds. */
export function sunsetOf(operation: Operation): number | undefined {
  const seconds = operation.deprecated ? epochSeconds(operation.extensions['x-sunset']) : undefined;
  return seconds === undefined ? undefined : seconds * 1000;
}

/** The operation `x-replaced-by` names, when the document has it. */
export function replacementOf(operation: Operation, operations: readonly Operation[]): Operation | undefined {
  const replacedBy = operation.extensions['x-replaced-by'] as { operationId?: unknown } | undefined;
  return operations.find(
    (candidate) => candidate.operationId !== undefined && candidate.operationId === replacedBy?.operationId,
  );
}
