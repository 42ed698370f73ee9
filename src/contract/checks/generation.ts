import { validObject, type ValueContext } from '../../openapi/generate.js';
import type { JsonSchema } from '../../openapi/openapi-types.js';
import { objectShape } from '../../openapi/schema-shape.js';
import { ReferenceFiller } from '../prepare/reference-values.js';
import type { CheckContext } from '../types.js';

/** What the data generators draw on in this check: references are filled from what the deployment showed. */
export function generation(
  context: CheckContext,
  filler = new ReferenceFiller(context, context.operation),
): ValueContext {
  const document = context.plan.document.dereferenced;
  return {
    random: context.random,
    tag: context.settings.namePrefix,
    observed: context.state.pool.observed,
    identities: identitiesOf(context),
    reference: filler.body,
    // Discriminator mappings name their variants through the document: a oneOf body gets its mapped value.
    document,
  };
}

/**
 * Properties that identify a resource of this operation's collection: its id property and any
 * `id`. A server may assign them whatever a client sends (the document rarely says): generated
 * bodies leave them out unless required, and probes of exact values skip them.
 */
export function identitiesOf(context: Pick<CheckContext, 'operation' | 'plan'>): string[] {
  const { operation, plan } = context;
  const collection = operation.collection ? plan.collection(operation.collection) : {};
  const names = [operation.idProperty, collection.create?.idProperty, collection.read?.idProperty, 'id'];
  return [...new Set(names.filter((name): name is string => name !== undefined))];
}

/**
 * A body to create test data with: the required properties only, or every property when the
 * schema requires none (`{}` is valid, but says nothing of what a deployment needs to create one).
 */
export function testDataBody(schema: JsonSchema, context: ValueContext): Record<string, unknown> {
  return validObject(schema, context, objectShape(schema).required.length > 0 ? 'required' : 'all');
}
