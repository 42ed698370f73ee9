// A resource identifier names its resource by `type` (fixtures/explore/typed-identifiers.yaml).
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { loadDocument } from '../../src/openapi/load.js';
import { inferReferences } from '../../src/openapi/reference-edges.js';
import { inferResources } from '../../src/openapi/resource-model.js';

const DOCUMENT = fileURLToPath(new URL('../fixtures/explore/typed-identifiers.yaml', import.meta.url));

it('ties a relationship id to the resource its type names, and leaves the body its own identity', async () => {
  const document = await loadDocument(DOCUMENT);
  const references = inferReferences(document, inferResources(document));
  const update = document.operations.find((operation) => operation.operationId === 'updateVisit')!;
  const edges = references
    .of(update)
    .filter((edge) => edge.slot.in === 'body')
    .map((edge) => `${edge.slot.name} <- ${edge.resource}.${edge.property} (${edge.rule})`);
  expect(edges).toEqual(['/data/relationships/host/data/id <- /owners.id (type)']);
});
