import { beforeAll, describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import { PETSTORE_SPEC } from '../../src/assets.js';
import { loadDocument, type LoadedDocument } from '../../src/openapi/load.js';
import { inferResources, type Resource, type ResourceModel } from '../../src/openapi/resource-model.js';
import { seedFromDocument } from '../../src/store/resource-seed.js';

const fixture = (name: string) => fileURLToPath(new URL(`../fixtures/resources/${name}`, import.meta.url));

function roles(resource: Resource): Record<string, string> {
  return Object.fromEntries(Object.entries(resource.operations).map(([role, operation]) => [role, operation.id]));
}

function byPath(model: ResourceModel, path: string): Resource {
  const resource = model.resources.find((candidate) => candidate.path === path);
  expect(resource, path).toBeDefined();
  return resource!;
}

describe('the Pet Store', () => {
  let document: LoadedDocument;
  let model: ResourceModel;
  beforeAll(async () => {
    document = await loadDocument(PETSTORE_SPEC);
    model = inferResources(document);
  });

  it('has one stateful resource, /pets, with its list, create and read', () => {
    expect(model.resources.map((resource) => resource.path)).toEqual(['/pets']);
    const pets = byPath(model, '/pets');
    expect(roles(pets)).toEqual({ list: 'listPets', create: 'createPet', read: 'getPet' });
    expect(pets).toMatchObject({
      itemPath: '/pets/{petId}',
      itemParameter: 'petId',
      parentParameters: [],
      key: { property: 'id', kind: 'integer', assignedBy: 'server' },
      stateful: true,
    });
  });

  it('knows the list limit and the status filter', () => {
    const [list] = byPath(model, '/pets').lists;
    expect(list!.limit).toEqual({ name: 'limit', minimum: 1, minimumDocumented: true, maximum: 100, default: 20 });
    expect(list!.filters).toEqual([
      { name: 'status', property: 'status', values: ['available', 'pending', 'sold'], type: 'string' },
    ]);
    expect(list!.wrapper).toBeUndefined();
  });

  it('binds operations to roles, and explains nothing about GET /store/orders', () => {
    const operation = (id: string) => document.operations.find((candidate) => candidate.operationId === id)!;
    expect(model.bindingOf(operation('createPet'))).toMatchObject({ role: 'create', resource: { path: '/pets' } });
    expect(model.bindingOf(operation('listPets'))?.list?.operation.operationId).toBe('listPets');
    expect(model.bindingOf(operation('listStoreOrders'))).toBeUndefined();
  });

  it('collects the example pets the document shows, one per id', () => {
    expect(byPath(model, '/pets').examples.map((pet) => pet.id)).toEqual([1, 2, 3]);
  });
});

describe('a shop document', () => {
  let model: ResourceModel;
  beforeAll(async () => {
    model = inferResources(await loadDocument(fixture('shop.yaml')));
  });

  it('orders: every role, an integer id the server assigns, the examples', () => {
    const orders = byPath(model, '/store/orders');
    expect(roles(orders)).toEqual({
      list: 'listOrders',
      create: 'placeOrder',
      read: 'getOrder',
      replace: 'replaceOrder',
      update: 'updateOrder',
      delete: 'deleteOrder',
    });
    expect(orders.key).toEqual({ property: 'id', kind: 'integer', assignedBy: 'server' });
    expect(orders.examples.map((order) => order.id)).toEqual([10, 11]);
    expect(orders.lists[0]!.filters.map((filter) => filter.name)).toEqual(['status']);
  });

  it('keys: a uuid named like the path parameter, a natural key the client sends, an <item>Id property', () => {
    expect(byPath(model, '/pets').key).toEqual({ property: 'petKey', kind: 'uuid', assignedBy: 'either' });
    expect(byPath(model, '/users').key).toEqual({ property: 'username', kind: 'string', assignedBy: 'client' });
    expect(byPath(model, '/events').key).toEqual({ property: 'eventId', kind: 'uuid', assignedBy: 'either' });
  });

  it('a sub-resource is keyed by its parent keys', () => {
    const posts = byPath(model, '/users/{username}/posts');
    expect(posts).toMatchObject({ parentParameters: ['username'], itemParameter: 'postId', stateful: true });
    expect(posts.key).toEqual({ property: 'postId', kind: 'integer', assignedBy: 'server' });
  });

  it('a wrapped list names its array property; page_size is its limit', () => {
    const [list] = byPath(model, '/events').lists;
    expect(list!.wrapper).toBe('data');
    expect(list!.limit?.name).toBe('page_size');
  });

  it('seeds from the examples first, then generated items under fresh keys, the same for a seed', () => {
    const orders = byPath(model, '/store/orders');
    const seeded = seedFromDocument(orders, 1);
    expect(seeded.map((order) => order.id)).toEqual([10, 11, 12]);
    expect(seedFromDocument(orders, 1)).toEqual(seeded);
    const events = seedFromDocument(byPath(model, '/events'), 1);
    expect(new Set(events.map((event) => event.eventId)).size).toBe(3);
  });
});

describe('links, finders and read-only collections', () => {
  let model: ResourceModel;
  beforeAll(async () => {
    model = inferResources(await loadDocument(fixture('links.yaml')));
  });

  it('a link from the create response names the key property', () => {
    const things = byPath(model, '/things');
    expect(things.key).toEqual({ property: 'ref', kind: 'string', assignedBy: 'server' });
    expect(things.links).toEqual([
      {
        from: 'createThing',
        status: '201',
        name: 'GetThing',
        target: 'getThing',
        parameters: { thingRef: '$response.body#/ref' },
      },
    ]);
  });

  it('a finder one segment below lists the same items, with its filter, limit and maxItems', () => {
    const things = byPath(model, '/things');
    expect(things.lists.map((list) => list.operation.operationId)).toEqual(['findThings']);
    expect(things.lists[0]).toMatchObject({ maxItems: 50, limit: { name: 'max', maximum: 9 } });
    expect(things.lists[0]!.filters).toEqual([{ name: 'color', property: 'color', values: [], type: 'string' }]);
    expect(model.resources.map((resource) => resource.path)).not.toContain('/things/findByColor');
  });

  it('a collection without a create or a key keeps no state', () => {
    expect(byPath(model, '/colors')).toMatchObject({ stateful: false, key: undefined });
  });
});
