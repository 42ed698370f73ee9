// How the correct reference Pet Store reads what a client sends (shared/seed, sections 2-9): the
// query of listPets and the fields of a new pet. Faults bend these through their hooks.
import { isInt64 } from './json.js';
import { isPetStatus, type Answers } from './model.js';
import type { Variant } from './variants.js';

const DEFAULT_LIMIT = 20;
const MAX_LIMIT = 100;

/** `limit`: one integer from 1 to 100, 20 when absent; out of range is refused or clamped (variant). */
export function readLimit(values: readonly string[], variant: Variant, answers: Answers): number {
  if (values.length === 0) return DEFAULT_LIMIT;
  const clamp = variant.badLimit === 'clamp';
  const raw = values.length === 1 ? (values[0] ?? '') : '';
  if (!/^-?\d+$/.test(raw)) {
    if (clamp) return DEFAULT_LIMIT;
    throw answers.badRequest('invalid_parameter', 'Query parameter limit must be one integer from 1 to 100');
  }
  const limit = Number(raw);
  if (limit >= 1 && limit <= MAX_LIMIT) return limit;
  if (clamp) return Math.min(MAX_LIMIT, Math.max(1, limit));
  throw answers.badRequest('invalid_parameter', `Query parameter limit must be from 1 to 100, got ${raw}`);
}

/** `status`: at most once, one of the pet statuses. */
export function readStatusFilter(values: readonly string[], answers: Answers): string | undefined {
  if (values.length === 0) return undefined;
  const [status] = values;
  if (values.length > 1 || !isPetStatus(status))
    throw answers.badRequest('invalid_parameter', 'Query parameter status must be one of available, pending, sold');
  return status;
}

/** `name`: a string; one with control characters is stored as sent, or refused (variant). */
export function readName(value: unknown, variant: Variant, answers: Answers): string {
  if (value === undefined) throw answers.invalidBody('/name', 'is required');
  if (typeof value !== 'string') throw answers.invalidBody('/name', 'must be a string');
  if (variant.controlCharacters === 'reject' && /[\u0000-\u001f\u007f]/.test(value))
    throw answers.invalidBody('/name', 'must not contain control characters');
  return value;
}

/** `categoryId`: an int64 integer (bigint, as parseJsonExact reads it). */
export function readCategoryId(value: unknown, answers: Answers): bigint | number {
  if (value === undefined) throw answers.invalidBody('/categoryId', 'is required');
  if (typeof value === 'bigint' && isInt64(value)) return value;
  const outOfRange =
    typeof value === 'bigint' || (typeof value === 'number' && (Number.isInteger(value) || !Number.isFinite(value)));
  throw answers.invalidBody('/categoryId', outOfRange ? 'must be within the int64 range' : 'must be an integer');
}

/** `status`: one of the pet statuses; absent, the variant's default. */
export function readStatus(value: unknown, variant: Variant, answers: Answers): string | undefined {
  if (value === undefined) return variant.defaultStatus;
  if (typeof value === 'string' && isPetStatus(value)) return value;
  throw answers.invalidBody('/status', 'must be one of available, pending, sold');
}
