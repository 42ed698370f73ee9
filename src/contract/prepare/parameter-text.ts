import { stringifyJson } from '../../core/json.js';

/** A parameter value as URL or header text: arrays comma-separated, objects as JSON. */
export function parameterText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) return value.map(parameterText).join(',');
  if (value !== null && typeof value === 'object') return stringifyJson(value);
  return value === null || value === undefined ? '' : String(value);
}
