import { exactNumbers } from '../../core/json.js';
import type { SchemaView } from '../../openapi/validators.js';
import type { CheckPlan } from '../prepare/plan.js';

/** Validates a value against the schema at `pointer` as `view` reads it; returns "pointer message" lines. */
export function schemaIssues(
  plan: CheckPlan,
  pointer: string,
  value: unknown,
  view: SchemaView = 'plain',
): { pointer: string; message: string }[] {
  return plan.validators.at(pointer, view)(exactNumbers(value));
}
