/**
 * Whether a `type` written beside a `$ref` contradicts the type of the schema it points at. OpenAPI
 * 3.0 ignores the siblings of a `$ref`; 3.1 applies them beside it, where no value has both types.
 * Either way the target's type is the one a value can meet, so kennel's generator and validators
 * both drop such a sibling (`{$ref: Amount, type: number}` is an Amount object).
 */
export function contradictsTarget(sibling: unknown, own: unknown): boolean {
  if (sibling === undefined || own === undefined) return false;
  const owned = new Set(Array.isArray(own) ? own : [own]);
  const wanted = Array.isArray(sibling) ? sibling : [sibling];
  return !wanted.every((type) => owned.has(type) || (type === 'integer' && owned.has('number')));
}
