// Reading Cardwall's request bodies strictly, as a careful server would: malformed JSON is a 400,
// anything that breaks the body's schema a 422 listing every member at fault.
import { isJsonMediaType, parseJson, parseDateTime, type Incoming } from '../http-kit.js';
import type { Cardwall, FieldError } from './context.js';

export type Body = Record<string, unknown>;

const MERGE_PATCH = 'application/merge-patch+json';

/** The JSON object of a POST or PUT body (application/json). */
export async function readJsonBody(api: Cardwall, request: Incoming): Promise<Body> {
  if (!isJsonMediaType(request.headers['content-type'])) throw api.refuse(400, 'The body must be application/json');
  return readObject(api, request);
}

/** The JSON object of a PATCH body (application/merge-patch+json, else 415). */
export async function readMergePatch(api: Cardwall, request: Incoming): Promise<Body> {
  const type = (request.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  const accepted = api.on('merge-patch-refused') ? 'application/json' : MERGE_PATCH;
  if (type !== accepted) throw api.refuse(415, `The body must be ${accepted}: got ${type || 'no type'}`);
  return readObject(api, request);
}

async function readObject(api: Cardwall, request: Incoming): Promise<Body> {
  const text = await request.body();
  if (text === undefined) throw api.refuse(400, 'The body is too large');
  const parsed = parseJson(text);
  if (!parsed && api.on('malformed-json-500')) throw new SyntaxError('Unexpected end of JSON input');
  if (!parsed) throw api.refuse(400, 'Problems parsing JSON');
  const { value } = parsed;
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw api.invalid([{ field: '', code: 'invalid', message: 'The body must be a JSON object' }]);
  return value as Body;
}

/** Collects the errors of one body, then refuses it with all of them at once. */
export class BodyCheck {
  readonly errors: FieldError[] = [];
  private readonly body: Body;

  constructor(body: Body, allowed: readonly string[]) {
    this.body = body;
    for (const field of Object.keys(body))
      if (!allowed.includes(field)) this.fail(field, 'unknown_field', `${field} is not a member of this body`);
  }

  has(field: string): boolean {
    return this.body[field] !== undefined;
  }

  fail(field: string, code: FieldError['code'], message: string): undefined {
    this.errors.push({ field, code, message });
    return undefined;
  }

  /** A string of `min..max` characters; `nullable` lets null through. */
  text(field: string, { required = false, max = 200, nullable = false } = {}): string | null | undefined {
    const value = this.body[field];
    if (value === undefined) return required ? this.fail(field, 'missing_field', `${field} is required`) : undefined;
    if (value === null && nullable) return null;
    if (typeof value !== 'string' || value.length < 1) return this.fail(field, 'invalid', `${field} must be text`);
    if (value.length > max) return this.fail(field, 'too_long', `${field} is longer than ${max} characters`);
    return value;
  }

  choice<T extends string>(field: string, choices: readonly T[]): T | undefined {
    const value = this.body[field];
    if (value === undefined) return undefined;
    if (choices.includes(value as T)) return value as T;
    return this.fail(field, 'invalid', `${field} must be one of ${choices.join(', ')}`);
  }

  /** A date-time (any offset) as an instant, null when null. */
  dateTime(field: string): number | null | undefined {
    const value = this.body[field];
    if (value === undefined || value === null) return value;
    const ms = typeof value === 'string' ? parseDateTime(value) : undefined;
    return ms ?? this.fail(field, 'invalid', `${field} must be an RFC 3339 date-time`);
  }

  matching(field: string, pattern: RegExp, { required = false } = {}): string | undefined {
    const value = this.body[field];
    if (value === undefined) return required ? this.fail(field, 'missing_field', `${field} is required`) : undefined;
    if (typeof value === 'string' && pattern.test(value)) return value;
    return this.fail(field, 'invalid', `${field} must match ${pattern.source}`);
  }

  raw(field: string): unknown {
    return this.body[field];
  }

  /** Refuses the body when anything failed. */
  done(api: Cardwall): void {
    if (this.errors.length > 0) throw api.invalid(this.errors);
  }
}

export const LABEL_KEY = /^[a-z0-9][a-z0-9-]{0,31}$/;
export const COLOR = /^#[0-9a-f]{6}$/;
