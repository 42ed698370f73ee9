import { createHash } from 'node:crypto';
import { stringifyJson } from '../core/json.js';
import type { OpenApiDocument } from './openapi-types.js';
import { SchemaValidators } from './validators.js';

/** Documents whose validators are kept, the least recently asked for dropped first. */
export const KEPT_DOCUMENTS = 8;

const kept = new Map<string, SchemaValidators>();

/**
 * The validators of a document, shared by every caller in the process that passes one with the
 * same content (`kennel serve` and `kennel check` of one document, a check run after another, a
 * reload that changed nothing): ajv compiles each schema once, not once per run. The key is the
 * document's content, so an edited document gets its own; SchemaValidators works on a private
 * copy, so what a caller later does to its document object never reaches the shared ones.
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
