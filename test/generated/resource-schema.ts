import type { Draws } from './draws.js';
import type { Built, DocumentParts, Schema } from './document-parts.js';
import { DEFAULTS, PROPERTY_KINDS } from './schema-properties.js';

/** How one item of a collection is named. */
export interface Names {
  singular: string;
  plural: string;
  /** The component schema's name (`Widget`). */
  type: string;
}

/** The key of an item: its property, who chooses it and how values look. */
export interface Key {
  property: string;
  /** The server assigns it (never in a create body) or the client names the item. */
  assignedBy: 'server' | 'client';
  schema: Schema;
  value: (n: number) => unknown;
}

/** The item schema of a collection and the bodies that write it. */
export interface ItemSchemas {
  key: Key;
  /** The item as responses show it. */
  item: Built;
  /** The body of a create and a replace. */
  input: Built;
  /** The body of an update (every property optional). */
  patch: Built;
  /** Names of the item's properties (the key included). */
  properties: string[];
}

const UUIDS = [
  '0b6d4f6e-2a51-4c3e-8f0a-7d9e1c2b3a45',
  '6f2e8a1c-93b7-4d05-a6e4-1c7f0b9d2e38',
  'c3a9e7d1-5b2f-4e86-9d0c-8a4f6b1e7c29',
];

function keyOf(parts: DocumentParts, names: Names, draws: Draws): Key {
  const kinds = ['id', 'named-id', 'slug', ...(parts.uses('formats') ? ['uuid'] : [])];
  const readOnly = parts.uses('read-only') ? { readOnly: true } : {};
  switch (draws.pick(kinds)) {
    case 'uuid':
      return {
        property: 'id',
        assignedBy: 'server',
        schema: { type: 'string', format: 'uuid', ...readOnly },
        value: (n) => UUIDS[n % 3],
      };
    case 'named-id':
      return {
        property: `${names.singular}Id`,
        assignedBy: 'server',
        schema: { type: 'integer', ...readOnly },
        value: (n) => n + 1,
      };
    case 'slug':
      return {
        property: 'slug',
        assignedBy: 'client',
        schema: {
          type: 'string',
          ...(parts.uses('patterns') ? { pattern: '^[a-z][a-z0-9-]*$' } : {}),
          ...(parts.uses('bounds') ? { minLength: 1, maxLength: 40 } : {}),
        },
        value: (n) => `item-${n + 1}`,
      };
    default:
      return {
        property: 'id',
        assignedBy: 'server',
        schema: { type: 'integer', ...(parts.uses('formats') ? { format: 'int64' } : {}), ...readOnly },
        value: (n) => n + 1,
      };
  }
}

interface Property {
  name: string;
  built: Built;
  required: boolean;
  readOnly: boolean;
  writeOnly: boolean;
}

function propertiesOf(parts: DocumentParts, draws: Draws): Property[] {
  const available = PROPERTY_KINDS.filter((kind) => kind.feature === undefined || parts.uses(kind.feature));
  const chosen = draws.some(available, draws.int(2, 5));
  // The filter parameter reads `status`: a collection with a filter has it.
  const status = available.find((kind) => kind.name === 'status');
  if (parts.uses('filter-parameter') && status && !chosen.includes(status)) chosen.push(status);
  const properties: Property[] = [
    {
      name: 'name',
      built: { schema: nameSchema(parts), sample: (n) => `Name ${n}` },
      required: true,
      readOnly: false,
      writeOnly: false,
    },
  ];
  for (const kind of chosen) {
    const built = kind.build(parts);
    const writeOnly = built.schema.writeOnly === true;
    const required = draws.chance(writeOnly ? 0.5 : 0.35);
    const fallback = DEFAULTS[kind.name];
    const schema =
      parts.uses('defaults') && !required && fallback !== undefined
        ? { ...built.schema, default: fallback }
        : built.schema;
    properties.push({ name: kind.name, built: { ...built, schema }, required, readOnly: false, writeOnly });
  }
  if (parts.uses('read-only'))
    properties.push({
      name: 'createdAt',
      built: { schema: { type: 'string', format: 'date-time', readOnly: true }, sample: () => '2024-03-01T09:00:00Z' },
      required: draws.chance(0.5),
      readOnly: true,
      writeOnly: false,
    });
  return properties;
}

function nameSchema(parts: DocumentParts): Schema {
  return parts.uses('bounds') ? { type: 'string', minLength: 1, maxLength: 80 } : { type: 'string' };
}

/** An object of `properties`; `closed` (the `additional-properties` feature) admits no other. */
function objectOf(properties: readonly Property[], withRequired: boolean, closed = false): Schema {
  const required = withRequired
    ? properties.filter((property) => property.required).map((property) => property.name)
    : [];
  return {
    type: 'object',
    ...(required.length > 0 ? { required } : {}),
    properties: Object.fromEntries(properties.map((property) => [property.name, property.built.schema])),
    ...(closed ? { additionalProperties: false } : {}),
  };
}

function sampleOf(properties: readonly Property[], skip: (property: Property) => boolean) {
  return (n: number): Record<string, unknown> =>
    Object.fromEntries(
      properties.filter((property) => !skip(property)).map((property) => [property.name, property.built.sample(n)]),
    );
}

/** Draws the item schema of a collection, its key and the schemas of the bodies that write it. */
export function itemSchemas(parts: DocumentParts, names: Names, draws: Draws): ItemSchemas {
  const key = keyOf(parts, names, draws.fork('key'));
  const keyProperty: Property = {
    name: key.property,
    built: { schema: key.schema, sample: key.value },
    required: key.assignedBy === 'client' || draws.fork('key required').chance(0.7),
    readOnly: key.schema.readOnly === true,
    writeOnly: false,
  };
  const own = propertiesOf(parts, draws.fork('properties'));
  const all = [keyProperty, ...own];
  const item = itemSchema(parts, names, keyProperty, own, draws);
  const forResponse = sampleOf(all, (property) => property.writeOnly);
  const written = all.filter(
    (property) => !property.readOnly && !(property === keyProperty && key.assignedBy === 'server'),
  );
  const forRequest = sampleOf(written, () => false);
  // With readOnly in use, a create body is the item schema itself: readOnly says what the client leaves out.
  const closed = parts.uses('additional-properties');
  const input = parts.uses('read-only') ? item : parts.component(`New${names.type}`, objectOf(written, true, closed));
  const patch = parts.component(`${names.type}Patch`, objectOf(written, false, closed));
  return {
    key,
    item: { schema: item, sample: forResponse },
    input: { schema: input, sample: forRequest },
    patch: { schema: patch, sample: (n) => ({ name: `Renamed ${n}` }) },
    properties: all.map((property) => property.name),
  };
}

function itemSchema(parts: DocumentParts, names: Names, key: Property, own: Property[], draws: Draws): Schema {
  if (!parts.uses('all-of') || !draws.fork('all-of').chance(0.7))
    return parts.component(names.type, objectOf([key, ...own], true, parts.uses('additional-properties')));
  const createdAt = own.find((property) => property.name === 'createdAt');
  const baseProperties = createdAt ? [key, createdAt] : [key];
  const baseName =
    key.name === 'id'
      ? `${key.built.schema.format === 'uuid' ? 'Uuid' : ''}Entity${createdAt ? 'Stamped' : ''}`
      : `${names.type}Base`;
  const base = parts.component(baseName, objectOf(baseProperties, true));
  const rest = own.filter((property) => property !== createdAt);
  return parts.component(names.type, { allOf: [base, objectOf(rest, true)] });
}
