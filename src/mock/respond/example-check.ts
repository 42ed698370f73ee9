import type { LoadedDocument, LoadWarning } from '../../openapi/load.js';
import { fragmentToken, valueAt } from '../../openapi/json-pointer.js';
import type { MediaType } from '../../openapi/operations.js';
import { describeIssues, type SchemaValidators } from '../../openapi/validators.js';

/** Time start-up may spend judging examples; a 3 MB document's rest is judged when served. */
const BUDGET_MS = 1500;
/** Warnings listed one by one; the rest are counted. */
const MAX_LISTED = 20;

interface Judged {
  media: MediaType;
  direction: 'request' | 'response';
}

function mediaOf(document: LoadedDocument): Judged[] {
  return document.operations.flatMap((operation) => [
    ...(operation.requestBody?.content ?? []).map((media) => ({ media, direction: 'request' as const })),
    ...operation.responses.flatMap((response) =>
      response.content.map((media) => ({ media, direction: 'response' as const })),
    ),
  ]);
}

/**
 * The documented examples that break their own schema, as located warnings (`api.yaml:41:
 * example "sold" of …: /status must be one of: …`). Served anyway (the document's own words),
 * flagged in `Kennel-Violations`. Judging stops after BUDGET_MS and says how many were left.
 */
export function exampleWarnings(
  document: LoadedDocument,
  validators: SchemaValidators,
  now = () => performance.now(),
): LoadWarning[] {
  const warnings: LoadWarning[] = [];
  const started = now();
  const judged = mediaOf(document).filter(({ media }) => media.schema && media.examples.size > 0);
  let broken = 0;
  for (const [index, { media, direction }] of judged.entries()) {
    if (now() - started > BUDGET_MS) {
      warnings.push({
        location: document.locate('#'),
        message: `${judged.length - index} media types' examples not judged at start-up (time); each is judged when served`,
      });
      break;
    }
    let view;
    try {
      view = validators.at(media.schema!.pointer, direction);
      view(undefined);
    } catch {
      continue; // ajv cannot compile the schema: nothing to judge by
    }
    for (const [name, value] of media.examples) {
      const issues = view(value);
      if (issues.length === 0) continue;
      broken += 1;
      if (broken > MAX_LISTED) continue;
      const named = `${media.pointer}/examples/${fragmentToken(name)}`;
      const pointer = valueAt(document.document, named) !== undefined ? named : `${media.pointer}/example`;
      warnings.push({
        location: document.locate(pointer),
        message: `example "${name}" breaks its schema: ${describeIssues(issues, 3)}; kennel serves it flagged in Kennel-Violations`,
      });
    }
  }
  if (broken > MAX_LISTED)
    warnings.push({
      location: document.locate('#'),
      message: `and ${broken - MAX_LISTED} more examples that break their schema`,
    });
  return warnings;
}
