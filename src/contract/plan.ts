import type { LoadedDocument } from '../openapi/load.js';
import { valueAt } from '../openapi/json-pointer.js';
import type { JsonSchema } from '../openapi/openapi-types.js';
import {
  jsonMediaType,
  type Operation,
  type OperationParameter,
  type OperationResponse,
} from '../openapi/operations.js';
import { SchemaValidators } from '../openapi/validators.js';
import { buildableMediaType } from './media-bodies.js';
import { objectShape, typesOf } from '../openapi/schema-shape.js';

/** A parameter with its schema dereferenced, for generating values. */
export interface PlannedParameter extends OperationParameter {
  resolved: JsonSchema | undefined;
}

/** A query parameter that bounds the length of a list (heuristic: see docs/contract-checks.md). */
export interface LimitParameter {
  name: string;
  /** The smallest limit to try: the schema's `minimum`, else 1. */
  minimum: number;
  /** The schema states a minimum: only then is a value below it sent as invalid. */
  minimumDocumented: boolean;
  maximum: number | undefined;
  default: number | undefined;
}

/** An enum query parameter named after a property of the listed items: it filters by that property. */
export interface FilterParameter {
  name: string;
  property: string;
  values: string[];
}

export type Role = 'list' | 'create' | 'read' | 'other';

/** An operation with everything the checks need, derived from the document once. */
export interface PlannedOperation {
  operation: Operation;
  id: string;
  role: Role;
  /** `/pets` for list/create/read operations of the same collection. */
  collection: string | undefined;
  safe: boolean;
  parameters: PlannedParameter[];
  /** Dereferenced JSON body schema and its pointer, when the operation takes a JSON body. */
  body: { pointer: string; schema: JsonSchema; required: boolean } | undefined;
  /** A body in another media type kennel can write (a form, text), when the operation takes no JSON body. */
  mediaBody: { mediaType: string; schema: JsonSchema | undefined; required: boolean } | undefined;
  /** Documented 2xx statuses as numbers. */
  successStatuses: number[];
  /** Documented validation statuses (400, 422): the answer the spec gives for invalid input. */
  validationStatuses: number[];
  /** Name of the identifier property of created/read resources (`id`). */
  idProperty: string | undefined;
  limit: LimitParameter | undefined;
  filters: FilterParameter[];
  deprecated: boolean;
  requiresAuth: boolean;
}

export interface Plan {
  spec: LoadedDocument;
  validators: SchemaValidators;
  operations: PlannedOperation[];
  /** Every operation of the document, selected or not (targets of links, read-backs). */
  all: PlannedOperation[];
  /** Schema pointer of the error body (the one most 4xx responses document), if any. */
  errorSchema: string | undefined;
  /** The list, create and read operations of a collection path. */
  collection(path: string): { list?: PlannedOperation; create?: PlannedOperation; read?: PlannedOperation };
}

const LIMIT_NAMES = /^(limit|max|max_?results|page_?size|per_?page|size|count|top|first)$/i;

function resolved(spec: LoadedDocument, pointer: string | undefined): JsonSchema | undefined {
  return pointer === undefined ? undefined : (valueAt(spec.dereferenced, pointer) as JsonSchema | undefined);
}

function successSchema(spec: LoadedDocument, operation: Operation): JsonSchema | undefined {
  const response = operation.responses.find((candidate) => /^2\d\d$/.test(candidate.status));
  const media = response && jsonMediaType(response.content);
  return resolved(spec, media?.schema?.pointer);
}

function roleOf(
  spec: LoadedDocument,
  operation: Operation,
  body: PlannedOperation['body'],
): { role: Role; collection: string | undefined } {
  const success = successSchema(spec, operation);
  const types = typesOf(success);
  const endsWithParam = /\/\{[^}/]+\}$/.test(operation.path);
  if (operation.method === 'get' && !endsWithParam && types.includes('array'))
    return { role: 'list', collection: operation.path };
  if (operation.method === 'post' && body && types.includes('object'))
    return { role: 'create', collection: operation.path };
  if (operation.method === 'get' && endsWithParam && types.includes('object')) {
    return { role: 'read', collection: operation.path.replace(/\/\{[^}/]+\}$/, '') || '/' };
  }
  return { role: 'other', collection: undefined };
}

function limitOf(parameters: readonly PlannedParameter[]): LimitParameter | undefined {
  const candidate = parameters.find(
    (parameter) =>
      parameter.in === 'query' && typesOf(parameter.resolved).includes('integer') && LIMIT_NAMES.test(parameter.name),
  );
  if (!candidate || typeof candidate.resolved !== 'object') return undefined;
  const schema = candidate.resolved;
  return {
    name: candidate.name,
    minimum: typeof schema.minimum === 'number' ? schema.minimum : 1,
    minimumDocumented: typeof schema.minimum === 'number',
    maximum: typeof schema.maximum === 'number' ? schema.maximum : undefined,
    default: typeof schema.default === 'number' ? schema.default : undefined,
  };
}

function filtersOf(
  spec: LoadedDocument,
  operation: Operation,
  parameters: readonly PlannedParameter[],
): FilterParameter[] {
  const success = successSchema(spec, operation);
  const items = typeof success === 'object' ? (success.items as JsonSchema | undefined) : undefined;
  const properties = objectShape(items).properties;
  return parameters.flatMap((parameter) => {
    const schema = parameter.resolved;
    if (parameter.in !== 'query' || typeof schema !== 'object' || !Array.isArray(schema.enum)) return [];
    if (!(parameter.name in properties)) return [];
    const values = schema.enum.filter((value): value is string => typeof value === 'string');
    return values.length > 0 ? [{ name: parameter.name, property: parameter.name, values }] : [];
  });
}

function idPropertyOf(spec: LoadedDocument, operation: Operation, body: PlannedOperation['body']): string | undefined {
  const success = successSchema(spec, operation);
  const shape = objectShape(
    typesOf(success).includes('array') && typeof success === 'object' ? (success.items as JsonSchema) : success,
  );
  const sent = new Set(Object.keys(objectShape(body?.schema).properties));
  if ('id' in shape.properties) return 'id';
  return shape.required.find((name) => !sent.has(name) && /id$/i.test(name));
}

/**
 * A read whose path parameter is a property of the resource (`/user/{username}`) reads by that
 * property: it is the collection's id, whatever other `id` the resource has.
 */
function namedByPath(
  spec: LoadedDocument,
  entry: { list?: PlannedOperation; create?: PlannedOperation; read?: PlannedOperation },
): void {
  const read = entry.read;
  const name = read?.parameters.filter((parameter) => parameter.in === 'path').at(-1)?.name;
  if (!read || !name || name === read.idProperty) return;
  if (!(name in objectShape(successSchema(spec, read.operation)).properties)) return;
  for (const planned of [entry.list, entry.create, read]) if (planned) planned.idProperty = name;
}

function statusNumbers(responses: readonly OperationResponse[], test: (status: number) => boolean): number[] {
  return responses
    .map((response) => Number(response.status))
    .filter((status) => Number.isInteger(status) && test(status));
}

function planOperation(spec: LoadedDocument, operation: Operation): PlannedOperation {
  const parameters = operation.parameters.map((parameter) => ({
    ...parameter,
    resolved: resolved(spec, parameter.schema?.pointer),
  }));
  const media = operation.requestBody && jsonMediaType(operation.requestBody.content);
  const bodySchema = resolved(spec, media?.schema?.pointer);
  const body =
    media?.schema && bodySchema !== undefined
      ? { pointer: media.schema.pointer, schema: bodySchema, required: operation.requestBody!.required }
      : undefined;
  const { role, collection } = roleOf(spec, operation, body);
  const other = body ? undefined : operation.requestBody?.content.find((item) => buildableMediaType(item.mediaType));
  const mediaBody = other && {
    mediaType: other.mediaType,
    schema: resolved(spec, other.schema?.pointer),
    required: operation.requestBody!.required,
  };
  return {
    operation,
    id: operation.id,
    role,
    collection,
    safe: operation.method === 'get' || operation.method === 'head' || operation.method === 'options',
    parameters,
    body,
    mediaBody,
    successStatuses: statusNumbers(operation.responses, (status) => status >= 200 && status < 300),
    validationStatuses: statusNumbers(operation.responses, (status) => status === 400 || status === 422),
    idProperty:
      role === 'create' || role === 'read' || role === 'list' ? idPropertyOf(spec, operation, body) : undefined,
    limit: role === 'list' ? limitOf(parameters) : undefined,
    filters: role === 'list' ? filtersOf(spec, operation, parameters) : [],
    deprecated: operation.deprecated,
    requiresAuth:
      operation.security.requirements.length > 0 &&
      operation.security.requirements.every((requirement) => Object.keys(requirement).length > 0),
  };
}

/** The schema pointer most 4xx responses share: the document's error body. */
function errorSchemaOf(operations: readonly Operation[]): string | undefined {
  const counts = new Map<string, number>();
  for (const operation of operations) {
    for (const response of operation.responses) {
      if (!/^4\d\d$/.test(response.status)) continue;
      const pointer = jsonMediaType(response.content)?.schema?.pointer;
      if (pointer) counts.set(pointer, (counts.get(pointer) ?? 0) + 1);
    }
  }
  return [...counts.entries()].sort((a, b) => b[1] - a[1])[0]?.[0];
}

/** Plans a run over `operations` of the document (all by default). */
export function buildPlan(spec: LoadedDocument, select: (operation: Operation) => boolean = () => true): Plan {
  const all = spec.operations.map((operation) => planOperation(spec, operation));
  const operations = all.filter((planned) => select(planned.operation));
  const collections = new Map<
    string,
    { list?: PlannedOperation; create?: PlannedOperation; read?: PlannedOperation }
  >();
  for (const planned of all) {
    if (!planned.collection || planned.role === 'other') continue;
    const entry = collections.get(planned.collection) ?? {};
    entry[planned.role] ??= planned;
    collections.set(planned.collection, entry);
  }
  for (const entry of collections.values()) namedByPath(spec, entry);
  return {
    spec,
    validators: new SchemaValidators(spec.document),
    operations,
    all,
    errorSchema: errorSchemaOf(spec.operations),
    collection: (path) => collections.get(path) ?? {},
  };
}
