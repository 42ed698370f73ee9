import SwaggerParser from '@apidevtools/swagger-parser';
import { beforeAll, describe, expect, it } from 'vitest';
import { PETSTORE_SPEC } from '../../src/assets.js';
import { loadDocument, type LoadedDocument } from '../../src/openapi/load.js';
import { SchemaValidators } from '../../src/openapi/validators.js';

// Pins spec/petstore.yaml to the interface specification (../shared/seed/000_262315e539a6b09f.txt):
// every fact asserted here is quoted from it, so the document cannot drift.

type Doc = Record<string, any>;
let doc: Doc;

beforeAll(async () => {
  await SwaggerParser.validate(PETSTORE_SPEC);
  doc = await SwaggerParser.dereference(PETSTORE_SPEC);
});

describe('spec/petstore.yaml', () => {
  it('is OpenAPI 3.1, API version 1.0.0', () => {
    expect(doc.openapi).toMatch(/^3\.1\./);
    expect(doc.info.version).toBe('1.0.0');
  });

  it('declares production and staging as server variables whose base address includes /v1', () => {
    expect(doc.servers).toHaveLength(2);
    const [production, staging] = doc.servers;
    expect(production.url).toBe('{base_url}');
    expect(staging.url).toBe('{staging_base_url}');
    expect(production.description).toMatch(/^Production/);
    expect(staging.description).toMatch(/^Staging/);
    expect(new URL(production.variables.base_url.default).pathname).toBe('/v1');
    expect(new URL(staging.variables.staging_base_url.default).pathname).toBe('/v1');
  });

  it('requires bearerAuth on every operation', () => {
    expect(doc.components.securitySchemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(doc.security).toEqual([{ bearerAuth: [] }]);
    for (const [path, item] of Object.entries<Doc>(doc.paths)) {
      for (const [method, operation] of Object.entries<Doc>(item)) {
        expect(operation.security, `${method} ${path}`).toEqual([{ bearerAuth: [] }]);
        expect(operation.responses['401'].content['application/json'].schema, `${method} ${path} 401`).toBe(
          doc.components.schemas.Error,
        );
      }
    }
  });

  it('tags the pet operations animals and the order listing store', () => {
    expect(doc.tags.map((tag: Doc) => tag.name)).toEqual(['animals', 'store']);
    expect(doc.paths['/pets'].get.tags).toEqual(['animals']);
    expect(doc.paths['/pets'].post.tags).toEqual(['animals']);
    expect(doc.paths['/pets/{petId}'].get.tags).toEqual(['animals']);
    expect(doc.paths['/store/orders'].get.tags).toEqual(['store']);
  });

  it('has exactly the documented paths and operationIds', () => {
    expect(Object.keys(doc.paths)).toEqual(['/pets', '/pets/{petId}', '/store/orders']);
    expect(Object.keys(doc.paths['/pets'])).toEqual(['get', 'post']);
    expect(Object.keys(doc.paths['/pets/{petId}'])).toEqual(['get']);
    expect(Object.keys(doc.paths['/store/orders'])).toEqual(['get']);
    expect(doc.paths['/pets'].get.operationId).toBe('listPets');
    expect(doc.paths['/pets'].post.operationId).toBe('createPet');
    expect(doc.paths['/pets/{petId}'].get.operationId).toBe('getPet');
  });

  it('defines PetStatus, NewPet, Pet, Pets and Error as the spec tabulates them', () => {
    const { PetStatus, NewPet, Pet, Pets, Error } = doc.components.schemas;
    expect(PetStatus).toMatchObject({ type: 'string', enum: ['available', 'pending', 'sold'] });
    expect(NewPet.required).toEqual(['name', 'categoryId']);
    expect(Object.keys(NewPet.properties)).toEqual(['name', 'categoryId', 'status']);
    expect(NewPet.properties.name.type).toBe('string');
    expect(NewPet.properties.categoryId).toMatchObject({ type: 'integer', format: 'int64' });
    expect(NewPet.properties.status.enum).toEqual(['available', 'pending', 'sold']);
    expect(NewPet.properties.status.default).toBeUndefined();
    expect(Pet.allOf[0]).toBe(NewPet);
    expect(Pet.allOf[1]).toMatchObject({ required: ['id'], properties: { id: { type: 'integer', format: 'int64' } } });
    expect(Pets).toMatchObject({ type: 'array' });
    expect(Pets.items).toBe(Pet);
    expect(Error.required).toEqual(['code', 'message', 'status']);
    expect(Error.properties).toMatchObject({
      code: { type: 'string' },
      message: { type: 'string' },
      status: { type: 'integer' },
    });
  });

  it('listPets: optional limit 1..100 default 20 and status filter; 200 Pets, 401', () => {
    const operation = doc.paths['/pets'].get;
    expect(operation.parameters).toHaveLength(2);
    const [limit, status] = operation.parameters;
    expect(limit).toMatchObject({
      name: 'limit',
      in: 'query',
      required: false,
      schema: { type: 'integer', minimum: 1, maximum: 100, default: 20 },
    });
    expect(status).toMatchObject({ name: 'status', in: 'query', required: false });
    expect(status.schema).toBe(doc.components.schemas.PetStatus);
    expect(operation.requestBody).toBeUndefined();
    expect(Object.keys(operation.responses)).toEqual(['200', '401']);
    expect(operation.responses['200'].content['application/json'].schema).toBe(doc.components.schemas.Pets);
  });

  it('createPet: required NewPet body; 201 Pet, 400 and 401 Error', () => {
    const operation = doc.paths['/pets'].post;
    expect(operation.parameters).toBeUndefined();
    expect(operation.requestBody.required).toBe(true);
    expect(Object.keys(operation.requestBody.content)).toEqual(['application/json']);
    expect(operation.requestBody.content['application/json'].schema).toBe(doc.components.schemas.NewPet);
    expect(Object.keys(operation.responses)).toEqual(['201', '400', '401']);
    expect(operation.responses['201'].content['application/json'].schema).toBe(doc.components.schemas.Pet);
    expect(operation.responses['400'].content['application/json'].schema).toBe(doc.components.schemas.Error);
  });

  it('getPet: required int64 petId; 200 Pet, 401, 404; deprecated until 5 December 2030, replaced by listPets with status', () => {
    const operation = doc.paths['/pets/{petId}'].get;
    expect(operation.parameters).toEqual([
      expect.objectContaining({
        name: 'petId',
        in: 'path',
        required: true,
        schema: { type: 'integer', format: 'int64' },
      }),
    ]);
    expect(Object.keys(operation.responses)).toEqual(['200', '401', '404']);
    expect(operation.responses['200'].content['application/json'].schema).toBe(doc.components.schemas.Pet);
    expect(operation.responses['404'].content['application/json'].schema).toBe(doc.components.schemas.Error);
    expect(operation.deprecated).toBe(true);
    expect(operation['x-sunset']).toBe('2030-12-05');
    expect(operation['x-replaced-by']).toEqual({
      operationId: 'listPets',
      description: 'GET /pets with a status filter',
    });
    expect(operation.description).toMatch(/5 December 2030/);
  });

  it('declares GET /store/orders with try-it disabled and nothing invented', () => {
    const operation = doc.paths['/store/orders'].get;
    expect(operation['x-try-it-enabled']).toBe(false);
    expect(operation['x-behaviour-not-shown']).toBe(true);
    expect(operation.parameters).toBeUndefined();
    expect(operation.requestBody).toBeUndefined();
    expect(Object.keys(operation.responses)).toEqual(['401']);
    expect(Object.keys(doc.components.schemas)).not.toContain('Order');
  });

  it('names the stability markers as an extension without assigning them', () => {
    expect(doc.info['x-stability-markers']).toEqual(['experimental', 'beta']);
    for (const item of Object.values<Doc>(doc.paths)) {
      for (const operation of Object.values<Doc>(item)) expect(operation['x-stability']).toBeUndefined();
    }
  });
});

describe('spec/petstore.yaml examples', () => {
  let spec: LoadedDocument;
  beforeAll(async () => {
    spec = await loadDocument(PETSTORE_SPEC);
  });

  it('every example is valid against its schema', () => {
    const validators = new SchemaValidators(spec.document);
    let checked = 0;
    for (const operation of spec.operations) {
      for (const response of operation.responses) {
        for (const media of response.content) {
          for (const [name, example] of media.examples) {
            expect(validators.at(media.schema!.pointer)(example), `${operation.id} ${response.status} ${name}`).toEqual(
              [],
            );
            checked += 1;
          }
        }
      }
    }
    expect(checked).toBeGreaterThanOrEqual(8);
  });

  it('serves under the base path /v1 taken from the first server', () => {
    expect(spec.basePath).toBe('/v1');
  });
});
