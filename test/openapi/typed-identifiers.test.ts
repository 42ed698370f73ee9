// A resource identifier names its resource by `type` (fixtures/explore/typed-identifiers.yaml).
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { runContract } from '../../src/contract/run/runner.js';
import { startJsonServer } from '../helpers/json-server.js';
import { startTestMock } from '../helpers/mock-client.js';
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

it('has the mock refuse a relationship naming no owner, with the documented 422', async () => {
  const mock = await startTestMock({ specPath: DOCUMENT });
  try {
    const owner = await mock.request('POST', '/owners', {
      body: { data: { type: 'owners', attributes: { name: 'A' } } },
    });
    const host = (id: string) => ({
      data: { type: 'visits', relationships: { host: { data: { type: 'owners', id } } } },
    });
    const kept = await mock.request('POST', '/visits', { body: host(owner.body.data.id as string) });
    const dangling = await mock.request('POST', '/visits', { body: host(crypto.randomUUID()) });
    expect([kept.status, dangling.status]).toEqual([201, 422]);
  } finally {
    await mock.close();
  }
});

it('sees a deployment accept a relationship naming no owner', async () => {
  const owners = [{ type: 'owners', id: crypto.randomUUID(), attributes: { name: 'A' } }];
  const server = await startJsonServer(
    (request) => {
      if (request.method === 'GET' && request.url.pathname === '/owners')
        return { status: 200, body: { data: owners } };
      if (request.method === 'POST' && request.url.pathname === '/visits')
        return { status: 201, body: { data: { type: 'visits', id: '1' } } };
      return { status: 404, body: { error: 'nothing here' } };
    },
    (refusal) => ({ status: refusal.status, body: { error: refusal.message } }),
  );
  try {
    const summary = await runContract({
      baseUrl: server.url,
      apiKey: '',
      specPath: DOCUMENT,
      seed: 3,
      checks: ['unknown-reference-refused'],
    });
    const titles = summary.cases.flatMap((result) =>
      result.failures
        .filter((failure) => failure.severity === 'error')
        .map((failure) => `${result.operationId}: ${failure.title}`),
    );
    expect(
      titles.some((title) => title.startsWith('createVisit: accepted data/relationships/host/data/id')),
      titles.join('\n'),
    ).toBe(true);
  } finally {
    await server.close();
  }
});
