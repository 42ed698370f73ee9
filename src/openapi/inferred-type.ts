/** A schema that is an object (not `true`/`false`). */
type Schema = Record<string, unknown>;

/** The JSON types a schema admits, inferred from its keywords when it names none. */
export function inferredTypes(schema: Schema): string[] {
  if (typeof schema.type === 'string') return [schema.type];
  if (Array.isArray(schema.type)) return schema.type.filter((type): type is string => typeof type === 'string');
  if (Array.isArray(schema.enum))
    return [
      ...new Set(schema.enum.map((value) => (value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value))),
    ];
  if (schema.properties || schema.required || schema.additionalProperties || schema.patternProperties)
    return ['object'];
  if (schema.items || schema.prefixItems || schema.minItems !== undefined) return ['array'];
  if (schema.pattern !== undefined || schema.minLength !== undefined || schema.format !== undefined) return ['string'];
  if (schema.minimum !== undefined || schema.maximum !== undefined || schema.multipleOf !== undefined)
    return ['number'];
  return [];
}

/** The type a value is generated as: the first non-null type it admits. */
export function inferredPrimaryType(schema: Schema): string | undefined {
  const types = inferredTypes(schema);
  return types.find((type) => type !== 'null') ?? types[0];
}
