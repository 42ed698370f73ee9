import { objectShape, primaryType } from '../../openapi/schema-shape.js';
import type { RequestSpec } from '../types.js';
import { fitsSlot } from './reference-values.js';

/**
 * The item a replace or update body describes, its key set to the one its path names: a body
 * that carries the item's key (JSON:API's `{"data": {"type", "id"}}`) names the item the URL
 * names, and a server may refuse any other with 409. Only a key that fits its schema is set: a
 * body made invalid on purpose keeps its broken key.
 */
export function bodyNamingItsPath(spec: RequestSpec, value: unknown): unknown {
  const { operation } = spec;
  const key = operation.idProperty;
  const last = /\{([^}]+)\}$/.exec(operation.operation.path)?.[1];
  const pathValue = last === undefined ? undefined : spec.pathParams?.[last];
  if (operation.role !== 'update' && operation.role !== 'replace') return value;
  if (key === undefined || pathValue === undefined || spec.url !== undefined) return value;
  if (value === null || typeof value !== 'object' || Array.isArray(value) || !Object.hasOwn(value, key)) return value;
  const schema = objectShape(operation.body?.schema).properties[key];
  const current = (value as Record<string, unknown>)[key];
  if (!fitsSlot(current, schema, false) || !fitsSlot(pathValue, schema, true)) return value;
  const numeric = ['integer', 'number'].includes(primaryType(schema) ?? '');
  return { ...value, [key]: numeric ? Number(pathValue) : pathValue };
}
