import { createHash } from 'node:crypto';
import { stringifyJson } from '../core/json.js';
import type { OpenApiDocument } from './openapi-types.js';
import { SchemaValidators } from './validators.js';

/**
 * Documents whose validators are kept, the least recently asked for dropped first. Few: each holds
 * a copy of its document and everything ajv compiled from it.
 */
export const KEPT_DOCUMENTS = 4;

const kept = new Map<string, SchemaValidators>();

/**
 * The validators of a document for `kennel check`, shared by every run in the process that checks
 * a document with the same content (a run after another, as the tests, the benches and embedders
 * do): ajv compiles each schema once, not once per run. The key is the document's content, so an
 * edited document gets its own; SchemaValidators compiles from a private copy, so what a caller
 * later does to its document object never reaches the shared ones. `kennel serve` keeps its own
 * (a `--watch` session must not hold the documents it reloaded away from).
 */
export function validatorsFor(document: OpenApiDocument): SchemaValidators {
  const key = createHash('sha256').update(stringifyJson(document)).digest('base64');
  let validators = kept.get(key);
  if (validators) kept.delete(key);
  else validators = new SchemaValidators(document);
  kept.set(key, validators);
  for (const oldest of kept.keys()) {
    if (kept.size <= KEPT_DOCUMENTS) break;
    kept.delete(oldest);
  }
  return validators;
}
