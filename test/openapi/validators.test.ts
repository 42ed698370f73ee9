import { describe, expect, it } from 'vitest';
import { describeIssues, MAX_DESCRIBED_ISSUES, MAX_ISSUES, SchemaValidators } from '../../src/openapi/validators.js';

describe('describeIssues', () => {
  const issues = (count: number) =>
    Array.from({ length: count }, (_, i) => ({ pointer: `/k${i}`, message: 'is not allowed' }));

  it('names every issue up to the bound, the root as (root)', () => {
    expect(describeIssues([{ pointer: '', message: 'must be object' }, ...issues(2)])).toBe(
      '(root) must be object; /k0 is not allowed; /k1 is not allowed',
    );
    expect(describeIssues(issues(MAX_DESCRIBED_ISSUES))).not.toContain('more');
  });

  it('counts the rest beyond the bound, so 500 unknown fields cannot make a long message', () => {
    const text = describeIssues(issues(500));
    expect(text).toContain(`/k${MAX_DESCRIBED_ISSUES - 1} is not allowed; and ${500 - MAX_DESCRIBED_ISSUES} more`);
    expect(text).not.toContain(`/k${MAX_DESCRIBED_ISSUES} `);
  });

  it('keeps at most MAX_ISSUES issues per value, and says the count is a floor', () => {
    const validators = new SchemaValidators({
      openapi: '3.1.0',
      info: { title: 't', version: '1' },
      paths: {},
      components: { schemas: { Closed: { type: 'object', additionalProperties: false } } },
    });
    const value = Object.fromEntries(Array.from({ length: 5000 }, (_, i) => [`k${i}`, 0]));
    const found = validators.at('#/components/schemas/Closed')(value);
    expect(found).toHaveLength(MAX_ISSUES);
    expect(describeIssues(found)).toContain(`and at least ${MAX_ISSUES - MAX_DESCRIBED_ISSUES} more`);
  });
});

describe('data in a document is not schema', () => {
  it('"$id" keys inside examples and extensions are not taken for schema ids (two equal ones once crashed)', () => {
    const thing = { type: 'object', properties: { $id: { type: 'string' } }, example: { $id: 'thing-1' } };
    const validators = new SchemaValidators({
      openapi: '3.1.0',
      info: { title: 't', version: '1' },
      paths: {
        '/things': {
          get: {
            responses: {
              '200': {
                description: 'ok',
                content: {
                  'application/json': {
                    schema: { $ref: '#/components/schemas/Thing' },
                    examples: { one: { value: { $id: 'thing-1' } }, two: { value: { $id: 'thing-1' } } },
                    'x-sample': { $id: 'thing-1' },
                  },
                },
              },
            },
          },
        },
      },
      components: { schemas: { Thing: thing } },
    });
    const validate = validators.at('#/paths/~1things/get/responses/200/content/application~1json/schema');
    expect(validate({ $id: 'x' })).toEqual([]);
    expect(validate({ $id: 3 })).toEqual([{ pointer: '/$id', message: 'must be string' }]);
  });

  it("an `id` key beside a schema's keywords (a property written one level too high) is no keyword", () => {
    const reply = { type: 'object', properties: { stat: { type: 'string' } }, id: { type: 'string' } };
    const validators = new SchemaValidators({
      openapi: '3.0.0',
      info: { title: 't', version: '1' },
      paths: {},
      components: { schemas: { Reply: reply } },
    });
    const validate = validators.at('#/components/schemas/Reply');
    expect(validate({ stat: 'ok' })).toEqual([]);
    expect(validate({ stat: 1 })).toEqual([{ pointer: '/stat', message: 'must be string' }]);
  });
});

describe('names in maps are names', () => {
  it('a header named x-next and a default response keep their schemas (nullable translated too)', () => {
    const validators = new SchemaValidators({
      openapi: '3.0.3',
      info: { title: 't', version: '1' },
      paths: {
        '/pets': {
          get: {
            responses: {
              '200': { description: 'ok', headers: { 'x-next': { schema: { type: 'string', nullable: true } } } },
              default: {
                description: 'error',
                content: { 'application/json': { schema: { type: 'integer', nullable: true } } },
              },
            },
          },
        },
      },
    });
    const header = validators.at('#/paths/~1pets/get/responses/200/headers/x-next/schema');
    expect(header(null)).toEqual([]);
    expect(header(3)).not.toEqual([]);
    expect(validators.at('#/paths/~1pets/get/responses/default/content/application~1json/schema')(null)).toEqual([]);
  });
});

describe('request and response views, and the closest branch of a composition', () => {
  const schemas = {
    Account: {
      type: 'object',
      required: ['id', 'name', 'password'],
      properties: {
        id: { type: 'integer', readOnly: true },
        name: { type: 'string' },
        password: { type: 'string', writeOnly: true },
      },
    },
    // `required` in one allOf part, the readOnly property declared in another.
    Staff: {
      allOf: [{ $ref: '#/components/schemas/Account' }, { type: 'object', required: ['id', 'badge'] }],
    },
    Link: {
      type: 'object',
      required: ['kind', 'url'],
      properties: { kind: { enum: ['link'] }, url: { type: 'string' } },
    },
    File: {
      type: 'object',
      required: ['kind', 'name', 'size'],
      properties: { kind: { enum: ['file'] }, name: { type: 'string' }, size: { type: 'integer' } },
    },
    Attachment: { anyOf: [{ $ref: '#/components/schemas/Link' }, { $ref: '#/components/schemas/File' }] },
    Post: {
      type: 'object',
      properties: {
        attachments: { type: 'array', items: { $ref: '#/components/schemas/Attachment' } },
        cover: { $ref: '#/components/schemas/Attachment', nullable: true },
      },
    },
    Either: { oneOf: [{ type: 'string' }, { type: 'string', minLength: 1 }] },
  };
  const validators = new SchemaValidators({
    openapi: '3.0.3',
    info: { title: 't', version: '1' },
    paths: {},
    components: { schemas },
  });
  const issues = (name: string, value: unknown, view?: 'request' | 'response') =>
    validators
      .at(
        `#/components/schemas/${name}`,
        view,
      )(value)
      .map((issue) => `${issue.pointer} ${issue.message}`);

  it.each([
    ['plain', undefined, ['/id is required', '/password is required']],
    ['request', 'request', ['/password is required']],
    ['response', 'response', ['/id is required']],
  ] as const)('%s: what a side of the wire must carry', (_label, view, expected) => {
    expect(issues('Account', { name: 'ada' }, view)).toEqual(expected);
  });

  it('a view still judges what is sent: a readOnly id of the wrong type is refused in a request', () => {
    expect(issues('Account', { id: 'x', name: 'ada', password: 'p' }, 'request')).toEqual(['/id must be integer']);
  });

  it('reads readOnly across allOf parts', () => {
    expect(issues('Staff', { name: 'ada', password: 'p' }, 'request')).toEqual(['/badge is required']);
    expect(issues('Staff', { name: 'ada', password: 'p' })).toEqual(['/id is required', '/badge is required']);
  });

  it('tells an anyOf failure by the closest branch: the one whose enum the value meets, in arrays and nullable', () => {
    expect(
      issues('Post', {
        attachments: [{ kind: 'file', name: 'a.txt' }, { kind: 'link' }],
        cover: { kind: 'file', size: 'big', name: 'b' },
      }),
    ).toEqual(['/attachments/0/size is required', '/attachments/1/url is required', '/cover/size must be integer']);
  });

  it('a oneOf that matches two branches says so once', () => {
    expect(issues('Either', 'text')).toEqual([' must match exactly one schema in oneOf']);
  });
});

describe('long chains of references', () => {
  // Model0.next → Model1 → … → Model399, each also referring to itself: compiled as ajv does by
  // default (recursively, from the top) this overflowed the stack and left half-compiled
  // validators ("wrapper277.validate is not a function") for every later use.
  const LENGTH = 400;
  const model = (index: number) => ({
    type: 'object',
    required: ['id'],
    properties: {
      id: { type: 'integer' },
      parent: { $ref: `#/components/schemas/Model${index}` },
      ...(index + 1 < LENGTH ? { next: { $ref: `#/components/schemas/Model${index + 1}` } } : {}),
    },
  });
  const document = (openapi: string) => ({
    openapi,
    info: { title: 't', version: '1' },
    paths: {},
    components: { schemas: Object.fromEntries(Array.from({ length: LENGTH }, (_, i) => [`Model${i}`, model(i)])) },
  });

  it.each(['3.0.3', '3.1.0'])(
    'OpenAPI %s: the head of the chain validates, and finds a fault deep inside',
    (openapi) => {
      const validators = new SchemaValidators(document(openapi));
      let value: Record<string, unknown> = { id: 'deep' };
      for (let depth = 0; depth < 300; depth += 1) value = { id: depth, next: value };
      const found = validators.at('#/components/schemas/Model0', 'response')(value);
      expect(found).toEqual([{ pointer: `${'/next'.repeat(300)}/id`, message: 'must be integer' }]);
      expect(validators.at('#/components/schemas/Model277', 'response')({ id: 1, parent: { id: 2 } })).toEqual([]);
    },
  );
});
