// Body faults of the fault proxy: changes to a JSON answer that break its documented schema in one
// way a real deployment does (a required property dropped, a number sent as a string, null where
// the schema does not allow it), applied to every object the schema describes: the body itself,
// the items of an array body, and the items of an envelope's array members.

const MAX_DEPTH = 8;

/** The properties and required names of an object schema, its allOf members merged in. */
function objectView(schema, depth = 0) {
  const view = { properties: {}, required: new Set() };
  if (schema === null || typeof schema !== 'object' || depth > MAX_DEPTH) return view;
  for (const member of schema.allOf ?? []) {
    const inner = objectView(member, depth + 1);
    Object.assign(view.properties, inner.properties);
    for (const name of inner.required) view.required.add(name);
  }
  Object.assign(view.properties, schema.properties ?? {});
  for (const name of Array.isArray(schema.required) ? schema.required : []) view.required.add(name);
  return view;
}

const isObject = (value) => value !== null && typeof value === 'object' && !Array.isArray(value);
const typesOf = (schema) => (Array.isArray(schema?.type) ? schema.type : schema?.type ? [schema.type] : []);

/** Each [object, view] pair the schema describes in `body`. */
function describedObjects(body, schema) {
  if (Array.isArray(body)) return body.filter(isObject).map((item) => [item, objectView(schema?.items)]);
  if (!isObject(body)) return [];
  const view = objectView(schema);
  const pairs = [[body, view]];
  for (const [name, member] of Object.entries(body)) {
    const items = view.properties[name]?.items;
    if (Array.isArray(member) && items)
      for (const item of member.filter(isObject)) pairs.push([item, objectView(items)]);
  }
  return pairs;
}

/** Drops the last required property present (the first is often the key, which other checks read). */
function dropRequired(object, view) {
  const name = [...view.required].reverse().find((candidate) => candidate in object);
  if (name === undefined) return false;
  delete object[name];
  return true;
}

function numberAsString(object, view) {
  const name = Object.keys(object).findLast((candidate) => {
    const types = typesOf(view.properties[candidate]);
    return (
      typeof object[candidate] === 'number' &&
      !types.includes('string') &&
      types.some((type) => /^(?:integer|number)$/.test(type))
    );
  });
  if (name === undefined) return false;
  object[name] = String(object[name]);
  return true;
}

function allowsNull(schema) {
  if (schema.nullable === true || typesOf(schema).includes('null')) return true;
  if (Array.isArray(schema.enum) && schema.enum.includes(null)) return true;
  return [...(schema.oneOf ?? []), ...(schema.anyOf ?? []), ...(schema.allOf ?? [])].some(
    (member) => isObject(member) && allowsNull(member),
  );
}

/** A schema that says what its value is (a type, properties or an enum): `{}` allows null too. */
const constrains = (schema) =>
  isObject(schema) && (typesOf(schema).length > 0 || isObject(schema.properties) || Array.isArray(schema.enum));

function nullForNonNullable(object, view) {
  const name = Object.keys(object).findLast((candidate) => {
    const schema = view.properties[candidate];
    return object[candidate] !== null && constrains(schema) && !allowsNull(schema);
  });
  if (name === undefined) return false;
  object[name] = null;
  return true;
}

const CHANGES = {
  'required-field-dropped': dropRequired,
  'field-type-changed': numberAsString,
  'null-for-non-nullable': nullForNonNullable,
};

export const BODY_FAULTS = Object.keys(CHANGES);

/** `body` (parsed JSON) with `fault` applied where `schema` makes it one, or undefined when nowhere. */
export function faultyBody(fault, body, schema) {
  if (schema === undefined) return undefined;
  const copy = structuredClone(body);
  let changed = 0;
  for (const [object, view] of describedObjects(copy, schema)) if (CHANGES[fault](object, view)) changed += 1;
  return changed > 0 ? copy : undefined;
}

/**
 * An error body outside `schema` as real deployments send one (`{"error": "Not Found"}`), or
 * undefined when that body would fit it (a schema requiring nothing but `error`, or none at all).
 */
export function strayErrorBody(schema, statusText) {
  if (!isObject(schema)) return undefined;
  const view = objectView(schema);
  const types = typesOf(schema);
  const breaks =
    [...view.required].some((name) => name !== 'error') ||
    (types.length > 0 && !types.includes('object')) ||
    (schema.additionalProperties === false && !('error' in view.properties));
  return breaks ? { error: statusText } : undefined;
}
