// Reading Clinic's request documents strictly, as a careful JSON:API server would: another media
// type is a 415, malformed JSON or a body that is not a JSON:API document a 400, attribute values
// that break their schema a 422 naming the member by JSON Pointer.
import { isFullDate, isUuid, parseDateTime, parseJson, type Incoming } from '../http-kit.js';
import { JSON_API, type Clinic } from './context.js';

export type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The `data` object of a request document. */
export async function readData(api: Clinic, request: Incoming): Promise<Json> {
  const header = request.headers['content-type'] ?? '';
  const [type, ...parameters] = header.split(';').map((part) => part.trim());
  const onlyKnown = parameters.every((parameter) => /^(ext|profile)=/i.test(parameter));
  if (type?.toLowerCase() !== JSON_API || !onlyKnown)
    throw api.refuse(415, 'Unsupported media type', `The body must be ${JSON_API}: got ${header || 'none'}`);
  const text = await request.body();
  if (text === undefined) throw api.refuse(400, 'Body too large', 'The body is larger than 256 KiB');
  const parsed = parseJson(text);
  if (!parsed && api.on('malformed-json-500')) throw new SyntaxError('Unexpected end of JSON input');
  if (!parsed) throw api.refuse(400, 'Malformed JSON', 'The body is not valid JSON', { pointer: '' });
  if (!isObject(parsed.value) || !isObject(parsed.value.data))
    throw api.refuse(400, 'Invalid document', 'The body must be a document with a data object', { pointer: '/data' });
  return parsed.value.data;
}

/** Checks a resource object's `type` (409 when it is another type; 400 when missing). */
export function expectType(api: Clinic, data: Json, type: string): void {
  if (data.type === undefined)
    throw api.refuse(400, 'Missing type', 'data.type is required', { pointer: '/data/type' });
  if (data.type !== type)
    throw api.refuse(409, 'Type mismatch', `data.type must be ${type}: got ${String(data.type)}`, {
      pointer: '/data/type',
    });
}

/** Collects the attribute errors of one document, then refuses it with the first (422). */
export class AttributeCheck {
  private readonly attributes: Json;
  private readonly problems: { pointer: string; detail: string }[] = [];

  constructor(api: Clinic, data: Json, allowed: readonly string[], { required = false } = {}) {
    const attributes = data.attributes;
    if (attributes === undefined && !required) this.attributes = {};
    else if (!isObject(attributes))
      throw api.refuse(400, 'Invalid document', 'data.attributes must be an object', { pointer: '/data/attributes' });
    else this.attributes = attributes;
    for (const name of Object.keys(this.attributes))
      if (!allowed.includes(name)) this.fail(name, `${name} is not an attribute that can be written`);
  }

  present(name: string): boolean {
    return this.attributes[name] !== undefined;
  }

  raw(name: string): unknown {
    return this.attributes[name];
  }

  fail(name: string, detail: string): undefined {
    this.problems.push({ pointer: `/data/attributes/${name}`, detail });
    return undefined;
  }

  text(name: string, { required = false, max = 100, nullable = false } = {}): string | null | undefined {
    const value = this.attributes[name];
    if (value === undefined) return required ? this.fail(name, `${name} is required`) : undefined;
    if (value === null && nullable) return null;
    if (typeof value !== 'string' || value.length < 1) return this.fail(name, `${name} must be text`);
    if (value.length > max) return this.fail(name, `${name} is longer than ${max} characters`);
    return value;
  }

  choice<T extends string>(name: string, choices: readonly T[]): T | undefined {
    const value = this.attributes[name];
    if (value === undefined || choices.includes(value as T)) return value as T | undefined;
    return this.fail(name, `${name} must be one of ${choices.join(', ')}`);
  }

  integer(name: string, min: number, max: number): number | undefined {
    const value = this.attributes[name];
    if (value === undefined) return undefined;
    if (Number.isInteger(value) && (value as number) >= min && (value as number) <= max) return value as number;
    return this.fail(name, `${name} must be an integer from ${min} to ${max}`);
  }

  dateTime(name: string, { required = false } = {}): number | undefined {
    const value = this.attributes[name];
    if (value === undefined) return required ? this.fail(name, `${name} is required`) : undefined;
    const ms = typeof value === 'string' ? parseDateTime(value) : undefined;
    return ms ?? this.fail(name, `${name} must be an RFC 3339 date-time`);
  }

  date(name: string, { required = false } = {}): string | undefined {
    const value = this.attributes[name];
    if (value === undefined) return required ? this.fail(name, `${name} is required`) : undefined;
    if (isFullDate(value)) return value;
    return this.fail(name, `${name} must be a date (YYYY-MM-DD)`);
  }

  email(name: string): string | undefined {
    const value = this.attributes[name];
    if (value === undefined) return undefined;
    if (typeof value === 'string' && /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value) && value.length <= 254) return value;
    return this.fail(name, `${name} must be an email address`);
  }

  /** Refuses the document when anything failed: 422 (400 with the fault). */
  done(api: Clinic): void {
    const first = this.problems[0];
    if (first === undefined) return;
    const status = api.on('validation-as-400') ? 400 : 422;
    throw api.refuse(status, 'Invalid attribute', first.detail, { pointer: first.pointer });
  }
}

/** The patient a relationship's linkage names: 422 when malformed, 409 another type, 404 unknown or removed. */
export function linkedPatient(api: Clinic, linkage: unknown, pointer: string): string {
  if (!isObject(linkage)) throw api.refuse(422, 'Invalid relationship', 'The linkage must be an object', { pointer });
  if (linkage.type !== 'patients')
    throw api.refuse(409, 'Type mismatch', 'The patient relationship takes patients', { pointer: `${pointer}/type` });
  const id = linkage.id;
  if (!isUuid(id))
    throw api.refuse(422, 'Invalid relationship', 'A patient id is a uuid', { pointer: `${pointer}/id` });
  const patient = api.registered(id);
  if (patient) return patient.id;
  if (api.on('unknown-patient-accepted') && !api.patients.some((known) => known.id === id.toLowerCase()))
    return id.toLowerCase();
  throw api.refuse(404, 'Related resource not found', `No registered patient has the id ${id}`, { pointer });
}

export { isObject };
