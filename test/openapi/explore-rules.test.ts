// The resource model's inference rules, one small API each (fixtures/explore/rules.yaml): list
// envelopes, item wrappers, pagination, reference edges and the order of discovery.
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { dependencyOrder } from '../../src/openapi/dependency-order.js';
import { loadDocument, type LoadedDocument } from '../../src/openapi/load.js';
import { inferReferences, type ReferenceEdges } from '../../src/openapi/reference-edges.js';
import { inferResources, type ResourceModel } from '../../src/openapi/resource-model.js';

const RULES = fileURLToPath(new URL('../fixtures/explore/rules.yaml', import.meta.url));

let document: LoadedDocument;
let model: ResourceModel;
let references: ReferenceEdges;
beforeAll(async () => {
  document = await loadDocument(RULES);
  model = inferResources(document);
  references = inferReferences(document, model);
});

const operation = (id: string) => document.operations.find((candidate) => candidate.operationId === id)!;
const binding = (id: string) => model.bindingOf(operation(id));

/** The edges of an operation as `slot ← resource.property (rule)`. */
function edges(id: string): string[] {
  return references
    .of(operation(id))
    .map(
      (edge) =>
        `${edge.slot.in} ${edge.slot.name} <- ${edge.resource}.${edge.property} (${edge.rule}${edge.guessed ? ', guessed' : ''})`,
    );
}

describe('list envelopes and paging', () => {
  it.each([
    [
      'listStations',
      'data',
      ['links'],
      { kind: 'link', path: ['links', 'next'] },
      { name: 'page', kind: 'page', first: 1 },
    ],
    [
      'listTrips',
      'items',
      ['meta'],
      { kind: 'counter', parameter: 'offset', step: 'offset' },
      { name: 'offset', kind: 'offset', first: 0 },
    ],
    [
      'listLegs',
      'results',
      ['next_cursor'],
      { kind: 'token', path: ['next_cursor'], parameter: 'cursor' },
      { name: 'cursor', kind: 'cursor', first: 0 },
    ],
    [
      'listTickets',
      'data',
      ['has_more'],
      { kind: 'after-last', flag: ['has_more'], parameter: 'starting_after' },
      { name: 'starting_after', kind: 'cursor', first: 0 },
    ],
    ['listVehicles', undefined, [], { kind: 'header' }, undefined],
  ])('%s: items under %s beside %j, next page by %j', (id, wrapper, siblings, next, parameter) => {
    const list = binding(id)!.list!;
    expect(list.wrapper).toBe(wrapper);
    expect(list.siblings.map((sibling) => sibling.name)).toEqual(siblings);
    expect(list.pagination.next).toEqual(next);
    expect(list.pagination.parameter).toEqual(parameter);
  });

  it('reads the paging fields of an envelope: links, counts', () => {
    expect(binding('listStations')!.list!.pagination.fields).toEqual([
      { path: ['links', 'self'], meaning: 'self' },
      { path: ['links', 'next'], meaning: 'next' },
    ]);
    expect(binding('listTrips')!.list!.pagination.fields).toEqual([{ path: ['meta', 'total'], meaning: 'total' }]);
    expect(binding('listStations')!.list!.limit?.name).toBe('per_page');
  });

  it('takes an object holding an array beside required fields for an item, not a list', () => {
    expect(binding('getProfile')).toBeUndefined();
  });

  it('takes a date-time `since` for a filter, not a cursor', () => {
    expect(binding('listLegs')!.list!.pagination.parameter?.name).toBe('cursor');
  });
});

describe('item wrappers', () => {
  it('finds a single item wrapped in its own name or in data, in responses and request bodies', () => {
    expect(binding('getStation')!.wrappers).toEqual({ response: 'station' });
    expect(binding('createTrip')!.wrappers).toEqual({ request: 'trip', response: 'data' });
    expect(binding('createStation')!.wrappers).toEqual({});
  });

  it('keys the wrapped items: the read of a wrapped station, the trip a wrapped create answers', () => {
    const stations = model.resources.find((resource) => resource.path === '/stations')!;
    expect(stations.key).toMatchObject({ property: 'id', kind: 'uuid' });
    expect(Object.keys((stations.itemSchema as { properties: object }).properties)).toEqual(['id', 'name', 'code']);
  });
});

describe('reference edges, by rules in order', () => {
  it('a link feeds the path it names, through the wrapper of the response', () => {
    expect(edges('getTrip')).toEqual(['path tripRef <- /trips.id (link)']);
  });

  it('a path parameter takes keys of the collection it names', () => {
    expect(edges('getStation')).toEqual(['path station_id <- /stations.id (path)']);
  });

  it('query parameters by documented example and by description; enums, cursors and dates are no references', () => {
    expect(edges('listLegs')).toEqual([
      'query vehicle <- /vehicles.id (example)',
      'query destination <- /stations.id (description)',
    ]);
  });

  it('body properties by name (id suffixes, camel case, qualifiers, a property of the resource, a uuid noun), arrays of ids, nested objects, and a guessed uuid', () => {
    expect(edges('createReport')).toEqual([
      'body /tripId <- /trips.id (name)',
      'body /origin_station_id <- /stations.id (name)',
      'body /station_code <- /stations.code (name)',
      'body /station <- /stations.id (name)',
      'body /coupon_id <- /stations.id (format, guessed)',
      'body /leg_ids/* <- /legs.id (name)',
      'body /stops/*/station_id <- /stations.id (name)',
    ]);
  });

  it('orders producers before consumers: stations, trips and legs before the report that names them', () => {
    const order = dependencyOrder(document.operations, model, references).map((item) => item.operationId);
    for (const producer of ['listStations', 'listTrips', 'listLegs', 'createTrip'])
      expect(order.indexOf(producer), producer).toBeLessThan(order.indexOf('createReport'));
    expect(order.indexOf('listVehicles')).toBeLessThan(order.indexOf('listLegs'));
    expect(order.indexOf('listTrips')).toBeLessThan(order.indexOf('getTrip'));
  });
});
