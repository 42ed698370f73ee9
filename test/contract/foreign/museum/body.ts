// Reading the Museum's JSON request bodies strictly, as a careful server would.
import { isJsonMediaType, parseJson, type Incoming } from '../http-kit.js';
import type { Museum } from './context.js';

export async function readJsonObject(api: Museum, request: Incoming): Promise<Record<string, unknown>> {
  const text = await request.body();
  if (text === undefined) throw api.badRequest('The body is too large');
  if (!isJsonMediaType(request.headers['content-type'])) throw api.badRequest('The body must be application/json');
  const parsed = parseJson(text);
  if (!parsed && api.on('malformed-json-500')) throw new SyntaxError(`Unexpected token in JSON at position 0`);
  if (!parsed) throw api.badRequest('The body is not valid JSON');
  const { value } = parsed;
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw api.badRequest('The body must be a JSON object');
  return value as Record<string, unknown>;
}

/** A string field, or undefined when absent. */
export function optionalString(api: Museum, body: Record<string, unknown>, field: string): string | undefined {
  const value = body[field];
  if (value === undefined || typeof value === 'string') return value;
  throw api.badRequest(`${field} must be a string`);
}

export function requiredString(api: Museum, body: Record<string, unknown>, field: string): string {
  const value = optionalString(api, body, field);
  if (value === undefined) throw api.badRequest(`${field} is required`);
  return value;
}
