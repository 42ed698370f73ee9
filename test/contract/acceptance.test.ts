import { describe, expect, it } from 'vitest';
import { acceptanceOf, inventedReferencesIn, inventedSlots } from '../../src/contract/run/acceptance.js';
import type { PlannedOperation } from '../../src/contract/prepare/plan.js';
import type { RequestSpec } from '../../src/contract/types.js';

/** A create whose body schema is `schema`, documenting `examples` for its JSON body. */
function create(schema: object, examples: unknown[] = []): PlannedOperation {
  return {
    id: 'createThing',
    parameters: [],
    body: { pointer: '#/x', schema, required: true },
    operation: {
      requestBody: {
        required: true,
        content: [
          {
            mediaType: 'application/json',
            schema: undefined,
            examples: new Map(examples.map((value, index) => [`e${index}`, value])),
          },
        ],
      },
    },
  } as unknown as PlannedOperation;
}

const named = {
  type: 'object',
  required: ['name'],
  properties: { name: { type: 'string' }, ownerId: { type: 'integer' } },
};
const open = { type: 'object', properties: { label: { type: 'string' } } };
const observed = new Map<string, unknown[]>([['ownerId', [7]]]);

function request(operation: PlannedOperation, value: unknown, extra: Partial<RequestSpec> = {}): RequestSpec {
  return { operation, intent: 'valid', purpose: 'test', body: { value }, ...extra };
}

describe('acceptanceOf: what the document says must succeed', () => {
  it.each([
    ['required properties filled', named, { name: 'Rex' }, 'must'],
    ['a reference the deployment gave', named, { name: 'Rex', ownerId: 7 }, 'must'],
    ['a reference kennel invented', named, { name: 'Rex', ownerId: 1 }, 'plausible'],
    ['a uuid the deployment never gave', named, { name: '123e4567-e89b-12d3-a456-426614174000' }, 'plausible'],
    ['`{}` for a schema without required', open, {}, 'plausible'],
    ['every property of a schema without required', open, { label: 'x' }, 'plausible'],
    ['a non-object body', { type: 'array', items: { type: 'string' } }, ['a'], 'must'],
  ] as const)('%s: %s', (_label, schema, value, expected) => {
    expect(acceptanceOf(request(create(schema), value), { observed })).toBe(expected);
  });

  it('a documented example is a must, unless it names something the deployment never gave', () => {
    const operation = create(open, [{ label: 'from the docs' }, { label: 'x', ownerId: 99 }]);
    expect(acceptanceOf(request(operation, { label: 'from the docs' }), { observed })).toBe('must');
    expect(acceptanceOf(request(operation, { label: 'x', ownerId: 99 }), { observed })).toBe('plausible');
  });

  it('keeps an explicit mark, counts invented path or query references, and judges only valid requests', () => {
    const operation = create(named);
    expect(acceptanceOf(request(operation, {}, { acceptance: 'must' }), { observed })).toBe('must');
    expect(
      acceptanceOf(request(operation, { name: 'a' }, { inventedReferences: ['path.ownerId'] }), { observed }),
    ).toBe('plausible');
    expect(acceptanceOf(request(operation, { name: 'a' }, { intent: 'invalid' }), { observed })).toBeUndefined();
  });

  it("names invented reference slots at any depth, but not the resource's own identity", () => {
    const value = { thingId: 5, ownerId: 1, items: [{ productId: 2 }, { productId: 7 }], owner: { team_id: 3 } };
    const seen = new Map<string, unknown[]>([['productId', [7]]]);
    expect(inventedReferencesIn(value, seen, ['thingId'])).toEqual(['ownerId', 'items/productId', 'owner/team_id']);
  });

  it('an invented slot of a kind the deployment accepted before is no excuse for a refusal', () => {
    const operation = create(named);
    const invented = request(operation, { name: 'Rex', ownerId: 1 });
    expect(acceptanceOf(invented, { observed: new Map() })).toBe('plausible');
    expect(acceptanceOf(invented, { observed: new Map(), accepted: new Set(['ownerId']) })).toBe('must');
    expect(acceptanceOf(request(operation, { name: 'Rex' }), { observed: new Map() })).toBe('must');
  });

  it('an unresolved body slot counts only where the body sent holds it', () => {
    const operation = create(named);
    const unresolved = ['body /ownerId', 'body /lines/*/productId', 'query origin'];
    const left = request(operation, { name: 'Rex' }, { unresolvedReferences: unresolved });
    // Accepted without the optional reference, the body says nothing of how the deployment treats one.
    expect(inventedSlots(left, { observed: new Map() })).toEqual(['query.origin']);
    const held = request(
      operation,
      { name: 'Rex', ownerId: 1, lines: [{ productId: 2 }] },
      { unresolvedReferences: unresolved },
    );
    expect(inventedSlots(held, { observed: new Map() })).toEqual(
      expect.arrayContaining(['ownerId', 'lines/*/productId', 'query.origin']),
    );
  });
});
