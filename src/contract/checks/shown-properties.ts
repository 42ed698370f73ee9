import { valueAt } from '../../openapi/json-pointer.js';
import type { JsonSchema } from '../../openapi/openapi-types.js';
import { jsonMediaType } from '../../openapi/operations.js';
import { objectShape } from '../../openapi/schema-shape.js';
import { fits } from '../../openapi/value-fits.js';
import type { CheckPlan } from '../prepare/plan.js';
import type { CheckContext, Exchange } from '../types.js';
import { show } from './failure.js';
import { keptExactly } from './fidelity-values.js';
import { jsonBody } from './response-body.js';
import { documentedResponse, isSuccess } from './response-status.js';

const MAX_DEPTH = 8;

/** Properties an object schema declares, allOf merged and oneOf/anyOf alternatives included. */
function declared(schema: JsonSchema | undefined, into: Map<string, JsonSchema>, depth = 0): void {
  if (typeof schema !== 'object' || depth > MAX_DEPTH) return;
  for (const [name, property] of Object.entries(objectShape(schema).properties))
    if (!into.has(name)) into.set(name, property);
  for (const key of ['oneOf', 'anyOf'] as const)
    if (Array.isArray(schema[key])) for (const option of schema[key] as JsonSchema[]) declared(option, into, depth + 1);
}

/**
 * Which properties a response body promises to show as sent: those its schema declares, except
 * writeOnly ones and those whose schema the value sent does not fit (a number sent, an `Amount`
 * object shown; free text sent, an enum shown): the document says the server turns them into
 * something else. A create answering `{id}` promises nothing else back, so what was sent is
 * compared with a body for these properties only; a schema that declares none (a free-form
 * object) promises none.
 */
export function shownBy(schema: JsonSchema | undefined): (name: string, sent?: unknown) => boolean {
  const properties = new Map<string, JsonSchema>();
  declared(schema, properties);
  return (name, ...sent) => {
    const property = properties.get(name);
    if (property === undefined || (typeof property === 'object' && property.writeOnly === true)) return false;
    return sent.length === 0 || fits(sent[0], property);
  };
}

/**
 * The (dereferenced) schema of the JSON body the operation documents for the status `exchange`
 * got; for a success, of what a client reads in it (the item inside its wrapper, the items inside
 * their envelope), as `jsonBody` reads the body.
 */
export function documentedBodySchema(plan: CheckPlan, exchange: Exchange): JsonSchema | undefined {
  const response = documentedResponse(exchange);
  const pointer = response && jsonMediaType(response.content)?.schema?.pointer;
  const schema =
    pointer === undefined ? undefined : (valueAt(plan.document.dereferenced, pointer) as JsonSchema | undefined);
  if (!isSuccess(exchange)) return schema;
  const { item, items } = exchange.operation.payload;
  const inside = item ?? items;
  return inside === undefined ? schema : (objectShape(schema).properties[inside] ?? schema);
}

/** The item schema of a list body's schema (`array` of items), else the schema itself. */
export function itemSchemaOf(schema: JsonSchema | undefined): JsonSchema | undefined {
  return typeof schema === 'object' && typeof schema.items === 'object' ? (schema.items as JsonSchema) : schema;
}

/**
 * Properties the body schema marks readOnly (a server may ignore what a client sends there) or
 * writeOnly (never sent back): what came back for them is not compared. The id read by is
 * (`keepId`): a readOnly id sent in a create is the server's to replace, the one read by is not.
 */
function uncompared(context: CheckContext, keepId: boolean): Set<string> {
  const { properties } = objectShape(context.operation.body?.schema);
  return new Set(
    Object.entries(properties)
      .filter(
        ([name, property]) =>
          !(keepId && name === context.operation.idProperty) &&
          typeof property === 'object' &&
          (property.readOnly === true || property.writeOnly === true),
      )
      .map(([name]) => name),
  );
}

/**
 * Properties sent that came back different (or not at all): those the body's documented schema
 * shows (a create answering `{id}` promises nothing else), except the readOnly and writeOnly ones.
 */
export function sentDifferences(
  context: CheckContext,
  sent: Record<string, unknown>,
  exchange: Exchange,
  keepId = false,
): string[] {
  const returned = jsonBody(exchange);
  if (returned === null || typeof returned !== 'object' || Array.isArray(returned))
    return ['the body is not an object'];
  const body = returned as Record<string, unknown>;
  const skipped = uncompared(context, keepId);
  const shown = shownBy(documentedBodySchema(context.plan, exchange));
  return Object.entries(sent)
    .filter(([name, value]) => shown(name, value) && !skipped.has(name) && !keptExactly(value, body[name]))
    .map(([name, value]) => `/${name} sent ${show(value)}, got ${name in body ? show(body[name]) : '(absent)'}`);
}
