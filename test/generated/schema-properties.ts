import type { Built, DocumentParts, Schema } from './document-parts.js';
import type { Feature } from './features.js';

/** One kind of property an item may have; `feature` says which generator feature brings it. */
interface PropertyKind {
  name: string;
  feature?: Feature;
  build(parts: DocumentParts): Built;
}

const UUIDS = [
  '3f1c2a7e-8b4d-4e2a-9c61-0d5b7a9e4f12',
  'a9d04c3b-51e7-4f86-b2d9-6c8e13f7a045',
  '5e7b9d21-c4a8-4b3f-8e06-f2d1a7c95b38',
];

const text = (name: string, parts: DocumentParts): Built => ({
  schema: parts.uses('bounds') ? { type: 'string', minLength: 1, maxLength: 60 } : { type: 'string' },
  sample: (n) => `${name} ${n}`,
});

const formatted = (format: string, sample: (n: number) => unknown): PropertyKind['build'] => {
  return () => ({ schema: { type: 'string', format }, sample });
};

/** The properties an item may carry besides its key; which ones a resource gets is drawn. */
export const PROPERTY_KINDS: readonly PropertyKind[] = [
  { name: 'description', build: (parts) => text('description', parts) },
  { name: 'active', build: () => ({ schema: { type: 'boolean' }, sample: (n) => n % 2 === 0 }) },
  { name: 'email', feature: 'formats', build: formatted('email', (n) => `user${n}@example.com`) },
  { name: 'website', feature: 'formats', build: formatted('uri', (n) => `https://example.com/page/${n}`) },
  { name: 'birthday', feature: 'formats', build: formatted('date', (n) => `2024-01-${String(n + 10)}`) },
  { name: 'updatedAt', feature: 'formats', build: formatted('date-time', (n) => `2024-05-0${n + 1}T12:30:00Z`) },
  { name: 'trackingId', feature: 'formats', build: formatted('uuid', (n) => UUIDS[n % UUIDS.length]) },
  { name: 'payload', feature: 'formats', build: formatted('byte', () => 'aGVsbG8gd29ybGQ=') },
  {
    name: 'quantity',
    feature: 'formats',
    build: (parts) => ({
      schema: { type: 'integer', format: 'int64', ...(parts.uses('bounds') ? { minimum: 0 } : {}) },
      sample: (n) => 10 + n,
    }),
  },
  {
    name: 'priority',
    feature: 'bounds',
    build: () => ({ schema: { type: 'integer', format: 'int32', minimum: 1, maximum: 5 }, sample: (n) => 1 + (n % 5) }),
  },
  {
    name: 'price',
    feature: 'bounds',
    build: (parts) => ({
      schema: { type: 'number', multipleOf: 0.5, maximum: 10000, ...parts.exclusiveMinimum(0) },
      sample: (n) => 12.5 + n,
    }),
  },
  {
    name: 'tags',
    build: (parts) => ({
      schema: {
        type: 'array',
        items: parts.uses('bounds') ? { type: 'string', minLength: 1, maxLength: 16 } : { type: 'string' },
        ...(parts.uses('bounds') ? { minItems: 1, maxItems: 5, uniqueItems: true } : {}),
      },
      sample: (n) => ['red', `tag${n}`],
    }),
  },
  {
    name: 'code',
    feature: 'patterns',
    build: () => ({ schema: { type: 'string', pattern: '^[A-Z]{3}-[0-9]{4}$' }, sample: (n) => `ABC-${1000 + n}` }),
  },
  {
    name: 'status',
    feature: 'enums',
    build: () => ({ schema: { type: 'string', enum: STATUSES }, sample: (n) => STATUSES[n % STATUSES.length] }),
  },
  {
    name: 'schemaVersion',
    feature: 'const',
    build: (parts) => ({ schema: parts.constant('string', 'v1'), sample: () => 'v1' }),
  },
  { name: 'note', feature: 'nullable', build: (parts) => nullableNote(parts) },
  { name: 'address', build: (parts) => address(parts) },
  { name: 'contact', feature: 'one-of', build: (parts) => contact(parts) },
  { name: 'reference', feature: 'any-of', build: () => reference() },
  { name: 'shape', feature: 'discriminator', build: (parts) => shape(parts) },
  { name: 'secret', feature: 'write-only', build: () => secret() },
  { name: 'lines', feature: 'nested-objects', build: (parts) => lines(parts) },
  { name: 'dimensions', feature: 'nested-objects', build: () => dimensions() },
  { name: 'labels', feature: 'additional-properties', build: () => labels() },
  { name: '@type', feature: 'odd-keys', build: () => ({ schema: { type: 'string' }, sample: () => 'thing' }) },
  { name: 'display name', feature: 'odd-keys', build: (parts) => text('display name', parts) },
  {
    name: 'size/unit',
    feature: 'odd-keys',
    build: () => ({ schema: { type: 'string', enum: ['cm', 'in'] }, sample: (n) => (n % 2 === 0 ? 'cm' : 'in') }),
  },
  { name: 'x~flag', feature: 'odd-keys', build: () => ({ schema: { type: 'boolean' }, sample: (n) => n % 2 === 1 }) },
];

/** Defaults of optional properties (the `defaults` feature): each valid for its property. */
export const DEFAULTS: Record<string, unknown> = {
  description: 'none',
  active: false,
  quantity: 0,
  priority: 3,
  status: 'draft',
};

/** The values of the `status` enum (also the filter parameter's values). */
export const STATUSES = ['draft', 'active', 'archived'];

function nullableNote(parts: DocumentParts): Built {
  return { schema: parts.nullable({ type: 'string' }), sample: (n) => (n % 2 === 0 ? null : `note ${n}`) };
}

function address(parts: DocumentParts): Built {
  const schema = parts.component('Address', {
    type: 'object',
    required: ['city'],
    properties: {
      street: { type: 'string' },
      city: parts.uses('bounds') ? { type: 'string', minLength: 1, maxLength: 40 } : { type: 'string' },
      ...(parts.uses('patterns') ? { postcode: { type: 'string', pattern: '^[0-9]{5}$' } } : {}),
    },
  });
  const sample = (n: number): unknown => ({
    street: `${n} Main Street`,
    city: 'Lisbon',
    ...(parts.uses('patterns') ? { postcode: `1000${n % 10}` } : {}),
  });
  if (!parts.uses('nullable')) return { schema, sample };
  return { schema: parts.nullable(schema), sample };
}

function contact(parts: DocumentParts): Built {
  const email = parts.component('EmailContact', {
    type: 'object',
    required: ['email'],
    properties: { email: { type: 'string' } },
    additionalProperties: false,
  });
  const phone = parts.component('PhoneContact', {
    type: 'object',
    required: ['phone'],
    properties: { phone: { type: 'string', ...(parts.uses('patterns') ? { pattern: '^\\+[0-9]{6,12}$' } : {}) } },
    additionalProperties: false,
  });
  return {
    schema: { oneOf: [email, phone] },
    sample: (n) => (n % 2 === 0 ? { email: `c${n}@example.com` } : { phone: `+3511234${n}00` }),
  };
}

function reference(): Built {
  return {
    schema: {
      anyOf: [
        { type: 'string', minLength: 1, maxLength: 12 },
        { type: 'integer', minimum: 0 },
      ],
    },
    sample: (n) => (n % 2 === 0 ? `ref-${n}` : n),
  };
}

function shape(parts: DocumentParts): Built {
  const mapped = parts.draws.fork('discriminator mapping').chance(0.5);
  // Without a mapping the discriminator's values are the schemas' names.
  const value = (name: string): string => (mapped ? name.toLowerCase() : name);
  const variant = (name: string, size: string): Schema =>
    parts.component(name, {
      type: 'object',
      required: ['kind', size],
      properties: { kind: { type: 'string', enum: [value(name)] }, [size]: { type: 'number', minimum: 0 } },
    });
  const mapping = { circle: '#/components/schemas/Circle', square: '#/components/schemas/Square' };
  return {
    schema: {
      oneOf: [variant('Circle', 'radius'), variant('Square', 'side')],
      discriminator: mapped ? { propertyName: 'kind', mapping } : { propertyName: 'kind' },
    },
    sample: (n) => (n % 2 === 0 ? { kind: value('Circle'), radius: 1.5 } : { kind: value('Square'), side: 2 }),
  };
}

function secret(): Built {
  return { schema: { type: 'string', minLength: 8, writeOnly: true }, sample: (n) => `s3cret-${n}-value` };
}

function lines(parts: DocumentParts): Built {
  const line = parts.component('OrderLine', {
    type: 'object',
    required: ['sku', 'quantity'],
    properties: { sku: { type: 'string' }, quantity: { type: 'integer', minimum: 1 } },
  });
  return {
    schema: { type: 'array', items: line },
    sample: (n) => [
      { sku: `SKU-${n}`, quantity: 1 },
      { sku: 'SKU-X', quantity: 2 + n },
    ],
  };
}

function dimensions(): Built {
  return {
    schema: {
      type: 'object',
      required: ['width', 'height'],
      properties: {
        width: { type: 'number', minimum: 0 },
        height: { type: 'number', minimum: 0 },
        unit: { type: 'string' },
      },
    },
    sample: (n) => ({ width: 10 + n, height: 5, unit: 'cm' }),
  };
}

function labels(): Built {
  return {
    schema: { type: 'object', additionalProperties: { type: 'string' } },
    sample: (n) => ({ colour: 'red', size: `s${n}` }),
  };
}
