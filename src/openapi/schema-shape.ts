import type { JsonSchema } from './openapi-types.js';

/** The JSON types a (dereferenced) schema admits, looking through allOf. */
export function typesOf(schema: JsonSchema | undefined): string[] {
  if (typeof schema !== 'object') return [];
  if (typeof schema.type === 'string') return [schema.type];
  if (Array.isArray(schema.type)) return schema.type.filter((type): type is string => typeof type === 'string');
  if (Array.isArray(schema.allOf)) return [...new Set((schema.allOf as JsonSchema[]).flatMap(typesOf))];
  if (schema.properties) return ['object'];
  if (Array.isArray(schema.enum))
    return [
      ...new Set(
        schema.enum.map((value) => (value === null ? 'null' : Number.isInteger(value) ? 'integer' : typeof value)),
      ),
    ];
  return [];
}

/** A string any text may go in, as far as its kind goes: no enum, const or format says what it must be. */
export function isFreeText(schema: JsonSchema | undefined): schema is Exclude<JsonSchema, boolean> {
  return (
    typeof schema === 'object' &&
    typesOf(schema).includes('string') &&
    !Array.isArray(schema.enum) &&
    !('const' in schema) &&
    schema.format === undefined
  );
}

/**
 * An object schema whose properties can be read directly: `type: object` (through allOf), or
 * `properties` whatever the type says. Variants (oneOf/anyOf) are `objectVariants`' concern.
 */
export function isObjectSchema(schema: JsonSchema | undefined): boolean {
  return typesOf(schema).includes('object') || (typeof schema === 'object' && schema.properties !== undefined);
}

/** Properties and required names of an object schema, merged across allOf. */
export function objectShape(schema: JsonSchema | undefined): {
  properties: Record<string, JsonSchema>;
  required: string[];
} {
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  const visit = (node: JsonSchema | undefined, depth: number): void => {
    if (typeof node !== 'object' || depth > 8) return;
    Object.assign(properties, node.properties ?? {});
    if (Array.isArray(node.required)) required.push(...(node.required as string[]));
    if (Array.isArray(node.allOf)) for (const part of node.allOf as JsonSchema[]) visit(part, depth + 1);
  };
  visit(schema, 0);
  return { properties, required: [...new Set(required)] };
}

/** `format: int64`-style facts of an integer schema. */
export function integerBounds(schema: JsonSchema | undefined): { minimum?: number; maximum?: number; format?: string } {
  if (typeof schema !== 'object') return {};
  return {
    minimum: typeof schema.minimum === 'number' ? schema.minimum : undefined,
    maximum: typeof schema.maximum === 'number' ? schema.maximum : undefined,
    format: typeof schema.format === 'string' ? schema.format : undefined,
  };
}

/** The type a value is generated as: the first non-null type the schema admits (`null` only when that is all). */
export function primaryType(schema: JsonSchema | undefined): string | undefined {
  const types = typesOf(schema);
  return types.find((type) => type !== 'null') ?? types[0];
}

/** The branches of a oneOf/anyOf whose every branch is an object (variants among them), else undefined. */
export function objectVariants(schema: JsonSchema | undefined): JsonSchema[] | undefined {
  if (typeof schema !== 'object') return undefined;
  const branches = (schema.oneOf ?? schema.anyOf) as JsonSchema[] | undefined;
  if (!Array.isArray(branches) || branches.length === 0) return undefined;
  return branches.every((branch) => isObjectSchema(branch) || objectVariants(branch) !== undefined)
    ? branches
    : undefined;
}

/**
 * What every item a schema admits shows: an object's own shape, or, for variants (a menu item that
 * is a beverage or a dessert), the properties every branch declares (as the first declares them),
 * required where every branch requires them. A list of variants is keyed by what they share.
 */
export function sharedShape(schema: JsonSchema | undefined): ReturnType<typeof objectShape> {
  const variants = isObjectSchema(schema) ? undefined : objectVariants(schema);
  if (!variants) return objectShape(schema);
  const [first, ...others] = variants.map(sharedShape);
  const shared = (name: string) => others.every((other) => name in other.properties);
  return {
    properties: Object.fromEntries(Object.entries(first!.properties).filter(([name]) => shared(name))),
    required: first!.required.filter((name) => others.every((other) => other.required.includes(name))),
  };
}
