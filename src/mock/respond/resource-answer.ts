import { ProblemError } from '../../core/problem.js';
import type { LoadedDocument } from '../../openapi/load.js';
import type { JsonSchema } from '../../openapi/openapi-types.js';
import { jsonMediaType, type Operation, type OperationResponse } from '../../openapi/operations.js';
import { objectShape, typesOf } from '../../openapi/schema-shape.js';
import { schemaAt, type Resource, type ResourceBinding } from '../../openapi/resource-model.js';
import { collectionNoun, singularOf } from '../../openapi/naming.js';
import type { FullReason } from '../../store/store-types.js';
import type { RequestContext } from '../../http/responder.js';
import { itemView, wrappedView, type ItemView } from './resource-views.js';

// How a stateful resource's answers look: the documented success, its item view, the nouns
// messages use. Apart from resource-responder.ts, which binds them to the store.

/** The documented success of an operation: 201 for creates when documented, else the first 2xx. */
export function successOf(operation: Operation, preferred?: number): OperationResponse | undefined {
  const successes = operation.responses.filter((response) => /^2\d\d$/.test(response.status));
  return successes.find((response) => response.status === String(preferred)) ?? successes[0];
}

export interface Answer {
  status: number;
  view: ItemView | undefined;
  location: boolean;
  /** The Location must be an absolute URL (its documented schema says `format: uri`), not a path. */
  absoluteLocation?: boolean;
  /** The answer is a list of the items made (`POST /env` with a list of variables). */
  many: boolean;
}

export function answerOf(
  document: LoadedDocument,
  binding: ResourceBinding,
  operation: Operation,
  preferred?: number,
): Answer {
  const { resource, wrappers } = binding;
  const response = successOf(operation, preferred);
  const status = response ? Number(response.status) : (preferred ?? 200);
  const pointer = response && jsonMediaType(response.content)?.schema?.pointer;
  const schema = pointer === undefined ? undefined : schemaAt(document, pointer);
  const wrapper = wrappers.response;
  const many = typeof schema === 'object' && typesOf(schema).includes('array');
  const inner = many
    ? (schema.items as JsonSchema)
    : wrapper === undefined
      ? schema
      : objectShape(schema).properties[wrapper];
  const plain = pointer === undefined ? undefined : itemView(inner, resource.itemSchema, document.dereferenced);
  const view = plain && wrapper !== undefined && !many ? wrappedView(plain, wrapper, schema) : plain;
  const location =
    !many && resource.itemPath !== undefined && (status === 201 || response?.headers.has('location') === true);
  const header = response?.headers.get('location')?.schema;
  const format =
    header === undefined ? undefined : (schemaAt(document, header.pointer) as { format?: unknown } | undefined);
  const absoluteLocation = location && typeof format === 'object' && format?.format === 'uri';
  return { status, view, location, many, absoluteLocation };
}

/** The answer a request gets: the documented success it prefers (`Prefer: code=200` on a create that documents 200 and 201), else the usual one. */
export type AnswerChoice = (request: RequestContext) => Answer;

export function answersOf(
  document: LoadedDocument,
  binding: ResourceBinding,
  operation: Operation,
  preferred?: number,
  override: Partial<Answer> = {},
): AnswerChoice {
  const usual = { ...answerOf(document, binding, operation, preferred), ...override };
  const others = new Map<number, Answer>();
  for (const { status } of operation.responses)
    if (/^2\d\d$/.test(status) && Number(status) !== usual.status)
      others.set(Number(status), { ...answerOf(document, binding, operation, Number(status)), ...override });
  if (others.size === 0) return () => usual;
  return (request) => others.get(request.preferences.code ?? 0) ?? usual;
}

export function nouns(resource: Resource): { one: string; many: string } {
  const many = collectionNoun(resource.path) ?? 'items';
  return { one: singularOf(many) || 'item', many };
}

const FULL_MESSAGES: Record<FullReason, (limit: number, many: string) => string> = {
  items: (limit, many) => `This store holds its maximum of ${limit} ${many}`,
  'store-bytes': (limit, many) => `This store's ${many} take its maximum of ${formatBytes(limit)} of memory`,
  'total-bytes': (limit, many) => `The ${many} of all stores take kennel's maximum of ${formatBytes(limit)} of memory`,
};

export function storeFull(reason: FullReason, limit: number, many: string): ProblemError {
  return new ProblemError(
    507,
    'store_full',
    `${FULL_MESSAGES[reason](limit, many)}; reset it with POST /__kennel/reset`,
  );
}

function formatBytes(bytes: number): string {
  if (bytes % (1024 * 1024) === 0) return `${bytes / (1024 * 1024)} MB`;
  return bytes % 1024 === 0 ? `${bytes / 1024} KB` : `${bytes} bytes`;
}
