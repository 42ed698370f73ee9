// Three questions about an object schema, each answered in one place (docs/decisions/object-schemas.md):
// can its properties be read (isObjectSchema), is it an object body, variants included
// (isObjectBody, isObjectList), and is a parameter's value an object, never an array
// (isObjectValued). A list response's items are objects or variants of objects, read by the
// properties every variant declares (sharedShape).
import { describe, expect, it } from 'vitest';
import { isObjectBody, isObjectList } from '../../src/openapi/document-schemas.js';
import { listShapeOf } from '../../src/openapi/list-envelope.js';
import type { JsonSchema } from '../../src/openapi/openapi-types.js';
import { isObjectValued } from '../../src/openapi/parameter-style.js';
import { isObjectSchema, sharedShape } from '../../src/openapi/schema-shape.js';

const beverage: JsonSchema = { type: 'object', properties: { id: { type: 'string' }, volume: { type: 'integer' } } };
const dessert: JsonSchema = { type: 'object', properties: { id: { type: 'string' }, calories: { type: 'integer' } } };
const variants: JsonSchema = { oneOf: [beverage, dessert] };

describe('object schemas', () => {
  it.each<[string, JsonSchema, boolean, boolean]>([
    ['type: object', { type: 'object' }, true, true],
    ['properties without a type', { properties: { a: { type: 'string' } } }, true, true],
    ['through allOf', { allOf: [{ type: 'object' }] }, true, true],
    ['oneOf objects (variants)', variants, false, true],
    ['oneOf an object and a string', { oneOf: [beverage, { type: 'string' }] }, false, false],
    ['a string', { type: 'string' }, false, false],
  ])('%s: readable %s, a body %s', (_name, schema, readable, body) => {
    expect(isObjectSchema(schema)).toBe(readable);
    expect(isObjectBody(schema)).toBe(body);
  });

  it('an array of variants is a list of bodies and a list response, keyed by what they share', () => {
    const array: JsonSchema = { type: 'array', items: variants };
    expect(isObjectList(array)).toBe(true);
    expect(listShapeOf(array)?.items).toBe(variants);
    expect(listShapeOf({ type: 'object', properties: { items: array } })?.wrapper).toBe('items');
    expect(sharedShape(variants).properties).toEqual({ id: { type: 'string' } });
    expect(listShapeOf({ type: 'array', items: { oneOf: [beverage, { type: 'string' }] } })).toBeUndefined();
  });

  it('an array of readable objects is both', () => {
    const array: JsonSchema = { type: 'array', items: beverage };
    expect(isObjectList(array)).toBe(true);
    expect(listShapeOf(array)?.items).toBe(beverage);
  });

  it('an object-valued parameter is never an array', () => {
    expect(isObjectValued({ type: 'object' })).toBe(true);
    expect(isObjectValued({ type: ['object', 'array'] })).toBe(false);
    expect(isObjectSchema({ type: ['object', 'array'] })).toBe(true);
  });
});
