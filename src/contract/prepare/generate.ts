import { exactNumbers, stringifyJson } from '../../core/json.js';
import type { JsonSchema } from '../../openapi/openapi-types.js';
import { coerceParameter } from '../../openapi/parameter-value.js';
import type { Validator } from '../../openapi/validators.js';
import type { PlannedParameter } from './plan.js';
import { minimalValue, sampleOf, validObject, type ValueContext } from '../../openapi/generate.js';
import { integerBounds, objectShape, typesOf } from '../../openapi/schema-shape.js';
import { atBounds, pastBounds } from './bound-cases.js';
import { formatVariants, malformedValues, patternBreaker } from './format-cases.js';
import type { Severity } from '../types.js';

/** What generated values may draw on (the shared generator's context). */
export type GenerationContext = ValueContext;

/** A valid body; `severity` is how sure the spec is that a deployment must accept it. */
export interface ValidBody {
  label: string;
  value: unknown;
  severity: Severity;
}

/** Beyond 2^53 (a JavaScript number loses the last digit) and the int64 maximum. */
const INT64_EDGES = [9007199254740993n, 9223372036854775807n];

/**
 * Valid bodies worth trying: the minimal one, each enum member of each enum property, each
 * property at each of its documented bounds and in the format spellings servers get wrong
 * (date-times with an offset), then int64 edges. A deployment may refuse an edge value for a
 * reference it checks (a category that does not exist): that is only a warning; accepting it and
 * storing another number is an error elsewhere.
 */
export function validBodies(schema: JsonSchema, context: GenerationContext, validate?: Validator): ValidBody[] {
  const bodies = candidateBodies(schema, context);
  // A bound or a format spelling can clash with another keyword (a pattern, a const): only valid bodies are sent.
  return validate ? bodies.filter((body) => validate(exactNumbers(body.value)).length === 0) : bodies;
}

function candidateBodies(schema: JsonSchema, context: GenerationContext): ValidBody[] {
  const bodies: ValidBody[] = [
    { label: 'required properties only', value: minimalValue(schema, context), severity: 'error' },
  ];
  // Enum members and int64 edges are properties of an object body: other bodies have the minimal one.
  if (typesOf(schema).length > 0 && !typesOf(schema).includes('object')) return bodies;
  const { properties: all, required } = objectShape(schema);
  // A server may assign an identity whatever is sent: its values are not probed unless required.
  const properties = Object.fromEntries(
    Object.entries(all).filter(([name]) => !context.identities?.includes(name) || required.includes(name)),
  );
  for (const [name, property] of Object.entries(properties)) {
    if (typeof property !== 'object' || !Array.isArray(property.enum)) continue;
    for (const member of property.enum as unknown[])
      bodies.push({
        label: `${name}=${JSON.stringify(member)}`,
        value: { ...validObject(schema, context, 'all'), [name]: member },
        severity: 'error',
      });
  }
  for (const [name, property] of Object.entries(properties))
    for (const { label, value } of [...atBounds(property), ...formatVariants(property)])
      bodies.push({
        label: `${name} ${label}`,
        value: { ...validObject(schema, context, 'all'), [name]: value },
        severity: 'error',
      });
  for (const [name, property] of Object.entries(properties)) {
    if (
      integerBounds(property).format !== 'int64' ||
      integerBounds(property).minimum !== undefined ||
      integerBounds(property).maximum !== undefined
    )
      continue;
    for (const edge of INT64_EDGES)
      bodies.push({
        label: `${name}=${edge} (int64 edge)`,
        value: { ...validObject(schema, context, 'required'), [name]: edge },
        severity: 'warning',
      });
  }
  return bodies;
}

/** A request body the schema must reject, or a malformed one; `severity` says how sure the spec is. */
export interface InvalidBody {
  label: string;
  body: { value: unknown } | { raw: string };
  contentType?: string | null;
  /** The spec documents this rejection exactly (a schema violation), rather than a transport mistake. */
  schemaViolation: boolean;
  severity: Severity;
  /** An out-of-range integer: a deployment that accepts it must keep exactly this value (else an error). */
  exact?: { name: string; value: bigint };
}

function wrongTypeValues(schema: JsonSchema): { label: string; value: unknown }[] {
  const types = typesOf(schema);
  const numeric = types.includes('integer') || types.includes('number');
  // An enum is checked by membership whatever the type: objects and arrays add nothing there.
  const blunt = !(typeof schema === 'object' && Array.isArray(schema.enum));
  const out: { label: string; value: unknown }[] = [];
  if (!types.includes('string')) out.push({ label: 'a string', value: 'not-a-number' });
  if (numeric && !types.includes('string')) out.push({ label: 'a numeric string', value: '7' });
  if (!numeric) out.push({ label: 'a number', value: 12345 });
  if (!types.includes('null') && !(typeof schema === 'object' && schema.nullable === true))
    out.push({ label: 'null', value: null });
  if (!types.includes('object') && blunt) out.push({ label: 'an object', value: { unexpected: true } });
  if (types.includes('integer')) out.push({ label: 'a fraction', value: 1.5 });
  if (!types.includes('boolean')) out.push({ label: 'a boolean', value: true });
  if (!types.includes('array') && blunt) out.push({ label: 'a one-element array', value: [numeric ? 7 : 'text'] });
  return out;
}

/** `base` as JSON text with `name` set to a number literal JSON.stringify cannot write (2^63, 1e400). */
function withLiteral(base: Record<string, unknown>, name: string, literal: string): string {
  return stringifyJson({ ...base, [name]: 0 }).replace(
    `${JSON.stringify(name)}:0`,
    `${JSON.stringify(name)}:${literal}`,
  );
}

/** An enum member in another letter case (`Available` for `available`), if any member has letters. */
function otherCase(members: readonly unknown[]): string | undefined {
  const member = members.find((value): value is string => typeof value === 'string' && /\p{L}/u.test(value));
  if (member === undefined) return undefined;
  const capitalised = member.charAt(0).toUpperCase() + member.slice(1);
  return capitalised !== member
    ? capitalised
    : member.toLowerCase() !== member
      ? member.toLowerCase()
      : member.toUpperCase();
}

/** Integers beyond a bounded integer's range: a deployment may keep them exactly (warning) but never alter them. */
function outOfRangeLiterals(schema: JsonSchema): { label: string; literal: string; value: bigint }[] {
  const { maximum, format } = integerBounds(schema);
  const literals: { label: string; literal: string; value: bigint }[] = [];
  if (format === 'int64') {
    literals.push({ label: 'beyond int64 (2^63)', literal: '9223372036854775808', value: 2n ** 63n });
    literals.push({ label: 'beyond int64 (-2^63-1)', literal: '-9223372036854775809', value: -(2n ** 63n) - 1n });
  }
  // 1e400 is an integer (10^400) beyond any double: only a range makes it invalid.
  if (format === 'int64' || format === 'int32' || maximum !== undefined)
    literals.push({ label: '1e400', literal: '1e400', value: 10n ** 400n });
  return literals;
}

function propertyMutations(name: string, schema: JsonSchema, base: Record<string, unknown>): InvalidBody[] {
  const mutations: InvalidBody[] = [];
  const withValue = (label: string, value: unknown, severity: Severity = 'error'): InvalidBody => ({
    label: `/${name} is ${label}`,
    body: { value: { ...base, [name]: value } },
    schemaViolation: true,
    severity,
  });
  const types = typesOf(schema);
  if (typeof schema === 'object' && Array.isArray(schema.enum)) {
    mutations.push(withValue('not one of the enum values', `not-a-valid-${name}`));
    const variant = otherCase(schema.enum);
    if (variant !== undefined)
      mutations.push(withValue(`${JSON.stringify(variant)}, an enum value in another letter case`, variant));
  }
  const minLength = typeof schema === 'object' && typeof schema.minLength === 'number' ? schema.minLength : 0;
  for (const malformed of malformedValues(schema))
    mutations.push(withValue(malformed.label, malformed.value, malformed.severity));
  const breaker = patternBreaker(schema);
  if (breaker) mutations.push(withValue(breaker.label, breaker.value, breaker.severity));
  const single = bareItem(schema, base[name]);
  if (single) mutations.push(withValue(single.label, single.value));
  for (const bound of pastBounds(schema, arrayItemOf(schema))) mutations.push(withValue(bound.label, bound.value));
  if (types.includes('string') && minLength === 0) mutations.push(withValue('an empty string', ''));
  for (const wrong of wrongTypeValues(schema)) mutations.push(withValue(wrong.label, wrong.value));
  if (types.includes('integer')) {
    for (const { label, literal, value } of outOfRangeLiterals(schema))
      mutations.push({
        label: `/${name} is ${label}`,
        body: { raw: withLiteral(base, name, literal) },
        schemaViolation: true,
        severity: 'warning',
        exact: { name, value },
      });
  }
  return mutations;
}

/**
 * An array's one item sent bare (`"2030-01-15"` for `["2030-01-15"]`): a client's classic slip,
 * which a lenient server wraps for it instead of refusing.
 */
function bareItem(schema: JsonSchema, valid: unknown): { label: string; value: unknown } | undefined {
  if (!typesOf(schema).includes('array')) return undefined;
  const item: unknown = Array.isArray(valid) && valid.length > 0 ? valid[0] : arrayItemOf(schema);
  if (item === undefined || Array.isArray(item)) return undefined;
  return { label: `its item ${JSON.stringify(item)} alone, not in an array`, value: item };
}

/** Depth of nested objects whose fields are mutated too (`/holder/email`). */
const NESTED_DEPTH = 2;

/**
 * Mutations of the fields of an object property the valid body holds (`holder`): formats, patterns
 * and enums broken one field at a time, each label naming its path.
 */
function nestedMutations(
  name: string,
  schema: JsonSchema,
  base: Record<string, unknown>,
  depth: number,
): InvalidBody[] {
  // A field the valid body leaves out (an optional holder) is probed inside a sample of its own.
  const inner = name in base ? base[name] : typesOf(schema).includes('object') ? sampleOf(schema) : undefined;
  if (depth > NESTED_DEPTH || inner === null || typeof inner !== 'object' || Array.isArray(inner)) return [];
  const { properties } = shapeFor(schema, inner as Record<string, unknown>);
  const wrap = (item: InvalidBody): InvalidBody => {
    if (!('value' in item.body)) return item;
    return {
      ...item,
      label: item.label.replace(/^\//, `/${name}/`),
      body: { value: { ...base, [name]: item.body.value } },
    };
  };
  return Object.entries(properties).flatMap(([field, property]) => {
    const here = fieldBreakers(field, property, inner as Record<string, unknown>);
    const deeper = nestedMutations(field, property, inner as Record<string, unknown>, depth + 1);
    return [...here, ...deeper].map(wrap);
  });
}

/** The format, pattern and enum violations of one field (what a nested field is probed with). */
function fieldBreakers(name: string, schema: JsonSchema, base: Record<string, unknown>): InvalidBody[] {
  const withValue = (label: string, value: unknown, severity: Severity = 'error'): InvalidBody => ({
    label: `/${name} is ${label}`,
    body: { value: { ...base, [name]: value } },
    schemaViolation: true,
    severity,
  });
  const out: InvalidBody[] = [];
  if (typeof schema === 'object' && Array.isArray(schema.enum))
    out.push(withValue('not one of the enum values', `not-a-valid-${name}`));
  for (const malformed of malformedValues(schema))
    out.push(withValue(malformed.label, malformed.value, malformed.severity));
  const breaker = patternBreaker(schema);
  if (breaker) out.push(withValue(breaker.label, breaker.value, breaker.severity));
  return out;
}

/**
 * The object shape a valid body follows: its own properties, or, for a `oneOf`/`anyOf` body, those
 * of the branch the body was generated from (its `const` and `enum` values hold, its required
 * fields are present), so that a card payment's `card_number` is probed like any field.
 */
function shapeFor(schema: JsonSchema, valid: Record<string, unknown>): ReturnType<typeof objectShape> {
  const own = objectShape(schema);
  if (typeof schema !== 'object' || Object.keys(own.properties).length > 0) return own;
  const branches = (
    Array.isArray(schema.oneOf) ? schema.oneOf : Array.isArray(schema.anyOf) ? schema.anyOf : []
  ) as JsonSchema[];
  const fits = (branch: JsonSchema): boolean => {
    const shape = objectShape(branch);
    if (Object.keys(shape.properties).length === 0 || !shape.required.every((name) => name in valid)) return false;
    return Object.entries(shape.properties).every(([name, property]) => {
      if (typeof property !== 'object' || !(name in valid)) return true;
      if ('const' in property && property.const !== valid[name]) return false;
      return !Array.isArray(property.enum) || property.enum.includes(valid[name]);
    });
  };
  const branch = branches.find(fits);
  return branch === undefined ? own : objectShape(branch);
}

/**
 * Bodies the schema must reject: each required property missing, each property of a wrong type,
 * out of its enum or bounds, a non-object root, then transport mistakes (malformed JSON, empty
 * body, wrong content type). Every schema case is re-validated before use: a case the schema
 * would accept is dropped, never sent as "invalid".
 */
export function invalidBodies(
  schema: JsonSchema,
  valid: Record<string, unknown>,
  validate: Validator,
  parse: (text: string) => unknown,
  options: { bodyRequired: boolean } = { bodyRequired: true },
): InvalidBody[] {
  const { properties, required } = shapeFor(schema, valid);
  const groups: InvalidBody[][] = required.map((name) => {
    const rest = { ...valid };
    delete rest[name];
    return [{ label: `required /${name} is missing`, body: { value: rest }, schemaViolation: true, severity: 'error' }];
  });
  for (const [name, property] of Object.entries(properties)) groups.push(propertyMutations(name, property, valid));
  // Nested fields after every top-level property's cases: one group per object property.
  for (const [name, property] of Object.entries(properties)) groups.push(nestedMutations(name, property, valid, 1));
  // Round robin over the properties, so that --max-examples reaches every property before the next case of one.
  const cases = roundRobin(groups);
  const roots: InvalidBody[] = [];
  for (const [label, value] of [
    ['an array', [valid]],
    ['a string', 'text'],
    ['a number', 42],
    ['null', null],
  ] as const) {
    roots.push({
      label: `the body is ${label}, not an object`,
      body: { value },
      schemaViolation: true,
      severity: 'error',
    });
  }
  // Judged as the server will read it: the text sent, parsed again (1.0 is an integer, NaN is null).
  const reallyInvalid = (items: InvalidBody[]) =>
    items.filter(
      (item) =>
        validate(exactNumbers(parse('raw' in item.body ? item.body.raw : stringifyJson(item.body.value)))).length > 0,
    );
  const text = stringifyJson(valid);
  const transport: InvalidBody[] = [
    { label: 'malformed JSON', body: { raw: text.slice(0, -1) + ',' }, schemaViolation: false, severity: 'error' },
    // An optional body may be left out: an empty one is then a request without a body, not a mistake.
    ...(options.bodyRequired
      ? [{ label: 'an empty body', body: { raw: '' }, schemaViolation: false, severity: 'error' } as const]
      : []),
    {
      label: 'a valid JSON body sent as text/plain',
      body: { raw: text },
      contentType: 'text/plain',
      schemaViolation: false,
      severity: 'warning',
    },
  ];
  // Most telling first, so that --max-examples keeps them: transport mistakes, near misses and wrong
  // types of each property, out-of-range integers (whose fidelity is checked), then non-object bodies.
  const propertyCases = reallyInvalid(cases);
  return [
    ...transport,
    ...propertyCases.filter((item) => item.severity === 'error'),
    ...propertyCases.filter((item) => item.severity !== 'error'),
    ...reallyInvalid(roots),
  ];
}

/** The first item of each group, then the second of each, and so on. */
export function roundRobin<T>(groups: readonly (readonly T[])[]): T[] {
  const out: T[] = [];
  for (let index = 0; groups.some((group) => index < group.length); index += 1)
    for (const group of groups) if (index < group.length) out.push(group[index]!);
  return out;
}

/** A value a parameter's schema must reject, as text, with how sure the document is about it. */
export interface InvalidParameterValue {
  label: string;
  value: string;
  severity: Severity;
}

/** The text of a bound case as a parameter sends it (arrays comma-separated). */
function parameterTextOf(value: unknown): string {
  return Array.isArray(value) ? value.map(String).join(',') : String(value);
}

/**
 * Values a parameter's schema must reject: not a number, a fraction, past each documented bound,
 * outside the enum, not a boolean, malformed for its format (uuid, date, date-time). Each is
 * re-checked against the schema after the coercion a server applies to query text.
 */
export function invalidParameterValues(
  parameter: PlannedParameter,
  validate: Validator | undefined,
): InvalidParameterValue[] {
  const schema = parameter.resolved;
  const candidates: InvalidParameterValue[] = [];
  const types = typesOf(schema);
  const error = (label: string, value: string): InvalidParameterValue => ({ label, value, severity: 'error' });
  if (types.includes('integer') || types.includes('number')) {
    candidates.push(error('not a number', 'abc'));
    if (types.includes('integer')) candidates.push(error('a fraction', '1.5'));
  }
  if (types.includes('boolean') && !types.includes('string')) candidates.push(error('not a boolean', 'maybe'));
  if (typeof schema === 'object' && Array.isArray(schema.enum))
    candidates.push(error('not one of the enum values', `not-a-valid-${parameter.name}`));
  candidates.push(...malformedValues(schema));
  const item = typeof schema === 'object' ? sampleOf(schema.items as JsonSchema | undefined) : undefined;
  for (const bound of pastBounds(schema, item)) candidates.push(error(bound.label, parameterTextOf(bound.value)));
  return candidates.filter((candidate) => {
    if (!sendable(parameter, candidate.value)) return false;
    const coerced = coerceParameter(candidate.value, schema, parameter.explode);
    return !coerced.ok || (validate?.(exactNumbers(coerced.value)).length ?? 0) > 0;
  });
}

/**
 * An empty path parameter is no value of it: `/items/{id}` becomes `/items/` (or `/exports/.json`),
 * another URL that servers fairly route elsewhere (often to the list) or to no operation at all.
 */
function sendable(parameter: PlannedParameter, value: string): boolean {
  return parameter.in !== 'path' || value !== '';
}

/**
 * Values a parameter's schema accepts that servers get wrong: each enum member, the minimum,
 * default and maximum (exclusive bounds too), strings at their length bounds, date-times with an
 * offset. Callers re-validate them.
 */
export function validParameterValues(parameter: PlannedParameter): string[] {
  const schema = parameter.resolved;
  if (typeof schema !== 'object') return [];
  if (Array.isArray(schema.enum)) return schema.enum.map(String);
  const values = [
    ...atBounds(schema).map((bound) => parameterTextOf(bound.value)),
    ...(typeof schema.default === 'number' ? [String(schema.default)] : []),
    ...formatVariants(schema).map((variant) => variant.value),
  ];
  return [...new Set(values)];
}

/** A valid item for an array schema's bound cases. */
function arrayItemOf(schema: JsonSchema): unknown {
  return typeof schema === 'object' ? sampleOf(schema.items as JsonSchema | undefined) : undefined;
}
