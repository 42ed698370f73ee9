/**
 * A small stateful OpenAPI document (create and read a Thing) for reload tests: `thing` is the
 * Thing schema's body (required list and properties), so each test changes only what it reloads.
 */
export const thingsDocument = (thing: string): string => `
openapi: 3.0.3
info: { title: Things, version: 1.0.0 }
paths:
  /things:
    post:
      operationId: createThing
      requestBody:
        required: true
        content: { application/json: { schema: { $ref: '#/components/schemas/Thing' } } }
      responses:
        '201':
          description: created
          content: { application/json: { schema: { $ref: '#/components/schemas/Thing' } } }
  /things/{id}:
    get:
      operationId: getThing
      parameters: [{ name: id, in: path, required: true, schema: { type: integer } }]
      responses:
        '200':
          description: one
          content: { application/json: { schema: { $ref: '#/components/schemas/Thing' } } }
        '404': { description: none }
components:
  schemas:
    Thing:
      type: object
${thing}`;
