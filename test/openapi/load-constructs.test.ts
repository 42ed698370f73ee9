import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadDocument } from '../../src/openapi/load.js';
import { valueAt } from '../../src/openapi/json-pointer.js';
import { SchemaValidators } from '../../src/openapi/validators.js';

const fixture = (name: string) => path.resolve('test/fixtures/openapi', name);

describe('valid documents kennel used to refuse load', () => {
  it('OpenAPI 3.1 with `scheme: Bearer` (HTTP auth scheme names are case-insensitive): no complaint', async () => {
    const loaded = await loadDocument(fixture('oas31-bearer.yaml'));
    expect(loaded.warnings).toEqual([]);
    expect(loaded.operations[0]!.security.schemes.bearerHttpAuthentication).toMatchObject({ scheme: 'Bearer' });
  });

  it('Swagger 2.0 is converted to OpenAPI 3.0, with a warning at the `swagger` line', async () => {
    const file = fixture('swagger2.yaml');
    const loaded = await loadDocument(file);
    expect(loaded.document.openapi).toMatch(/^3\.0\./);
    expect(loaded.warnings).toHaveLength(1);
    expect(loaded.warnings[0]!.location).toBe(`${file}:1`);
    expect(loaded.warnings[0]!.message).toMatch(/^Swagger 2\.0 document converted to OpenAPI 3\.0 \(swagger2openapi\)/);
    expect(loaded.basePath).toBe('/v2');
    const [operation] = loaded.operations;
    expect(operation).toMatchObject({ id: 'getItem', path: '/items/{itemId}', method: 'get' });
    const schema = operation!.responses[0]!.content[0]!.schema!;
    const validate = new SchemaValidators(loaded.document).at(schema.pointer);
    expect(validate({ id: 1, label: null })).toEqual([]); // x-nullable became nullable
    expect(validate({ id: 0 })).toEqual([{ pointer: '/id', message: 'must be >= 1' }]);
    // Locations of converted parts point at the original's lines.
    expect(loaded.locate('#/components/schemas/Item/properties/id')).toBe(`${file}:27`);
  });

  it('Swagger 2.0 in YAML that reuses a part by anchor and alias is converted', async () => {
    const loaded = await loadDocument(fixture('swagger2-yaml-anchors.yaml'));
    expect(loaded.operations.map((operation) => operation.id)).toEqual(['listShelves', 'listArchivedShelves']);
    expect(loaded.operations[1]!.responses[0]!.content[0]!.schema).toBeDefined();
  });

  it('a path key with percent-encoded characters (`/caf%C3%A9`): its schemas are found by their pointers', async () => {
    const loaded = await loadDocument(fixture('percent-encoded-path.yaml'));
    const [operation] = loaded.operations;
    expect(operation!.path).toBe('/caf%C3%A9/menu%20today');
    const pointer = operation!.responses[0]!.content[0]!.schema!.pointer;
    expect(valueAt(loaded.document, pointer)).toMatchObject({ required: ['dishes'] });
    const validate = new SchemaValidators(loaded.document).at(pointer);
    expect(validate({ dishes: ['soup'] })).toEqual([]);
    expect(validate({})).toEqual([{ pointer: '/dishes', message: 'is required' }]);
  });

  it('a webhooks-only document loads with no operations', async () => {
    const loaded = await loadDocument(fixture('webhooks-only.yaml'));
    expect(loaded.operations).toEqual([]);
    expect(loaded.warnings).toEqual([]);
  });

  it('a document split over files (external $refs, a cyclic schema in its own file) loads', async () => {
    const loaded = await loadDocument(fixture('multi-file/openapi.yaml'));
    expect(loaded.warnings).toEqual([]);
    const [operation] = loaded.operations;
    expect(operation).toMatchObject({ id: 'getThing', path: '/things/{id}' });
    const pointer = operation!.responses[0]!.content[0]!.schema!.pointer;
    const schema = valueAt(loaded.dereferenced, pointer) as { properties: { parent: unknown } };
    expect(schema.properties.parent).toBe(schema);
    const validate = new SchemaValidators(loaded.document).at(pointer);
    expect(validate({ id: 1, parent: { id: 2 } })).toEqual([]);
    expect(validate({ id: 1, parent: { id: 'x' } })).toEqual([{ pointer: '/parent/id', message: 'must be integer' }]);
  });
});
