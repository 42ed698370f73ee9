import type { LoadedDocument } from '../openapi/load.js';
import { valueAt } from '../openapi/json-pointer.js';
import type { JsonSchema } from '../openapi/openapi-types.js';
import {
  essenceOf,
  isFormMediaType,
  jsonMediaType,
  type MediaType,
  type Operation,
  type OperationParameter,
  type OperationResponse,
} from '../openapi/operations.js';
import type { SchemaValidators, Validator } from '../openapi/validators.js';
import type { RoutedOperation } from '../http/responder.js';
import { deprecationHeaders } from './respond/deprecation.js';

/** A parameter with its dereferenced schema (for coercion) and its compiled validator. */
export interface CompiledParameter extends OperationParameter {
  resolvedSchema: JsonSchema | undefined;
  validate: Validator | undefined;
}

/** A documented form body: its media type, how it is parsed, and its (request view) validator. */
export interface FormMedia {
  essence: string;
  kind: 'urlencoded' | 'multipart';
  schema: JsonSchema | undefined;
  validate: Validator | undefined;
  /** Fields whose `encoding` says `allowReserved: false`: reserved characters must come percent-encoded. */
  encodedOnly: ReadonlySet<string>;
}

/** Everything the mock needs per operation, computed once at start-up. */
export interface CompiledOperation extends RoutedOperation {
  parameters: CompiledParameter[];
  /**
   * Present when the operation takes a body; `json` false means no JSON media type is documented.
   * `forms` are the documented form media types (urlencoded, multipart), read and validated too.
   */
  body: { required: boolean; json: boolean; validate: Validator | undefined; forms: FormMedia[] } | undefined;
  /** Extra headers on every response of this operation (deprecation signals). */
  headers: Record<string, string>;
  /** The names of its query parameters (an exploded form object takes the query fields none of them names). */
  queryNames: ReadonlySet<string>;
  /** The response kennel answers unless told otherwise (`ordinaryResponse`); its media types decide 406. */
  ordinary: OperationResponse | undefined;
}

/** `4XX` → 400; `301` → 301; `default` → undefined. */
export function statusOf(response: OperationResponse): number | undefined {
  if (/^\d{3}$/.test(response.status)) return Number(response.status);
  if (/^[1-5]XX$/i.test(response.status)) return Number(response.status[0]) * 100;
  return undefined;
}

/**
 * The response an operation answers when nothing forces another: its lowest 2xx, else `default`
 * (as 200), else the first documented response (an operation that only redirects, or only fails).
 */
export function ordinaryResponse(operation: Operation): OperationResponse | undefined {
  const successes = operation.responses
    .filter((response) => /^2(\d\d|XX)$/i.test(response.status))
    .sort((a, b) => a.status.localeCompare(b.status));
  return (
    successes[0] ?? operation.responses.find((response) => response.status === 'default') ?? operation.responses[0]
  );
}

/** The fields of a form media type whose `encoding` entry says `allowReserved: false`. */
function encodedOnlyFields(document: LoadedDocument, media: MediaType): Set<string> {
  const encoding = valueAt(document.dereferenced, `${media.pointer}/encoding`);
  if (typeof encoding !== 'object' || encoding === null) return new Set();
  return new Set(
    Object.entries(encoding as Record<string, { allowReserved?: unknown }>)
      .filter(([, entry]) => typeof entry === 'object' && entry !== null && entry.allowReserved === false)
      .map(([name]) => name),
  );
}

/**
 * Header parameters named Accept, Content-Type or Authorization are ignored (OpenAPI 3.x, Parameter
 * Object): media types and security schemes describe those, and enforcing them refused requests
 * every client sends.
 */
const IGNORED_HEADERS = new Set(['accept', 'content-type', 'authorization']);

function described(parameter: OperationParameter): boolean {
  return !(parameter.in === 'header' && IGNORED_HEADERS.has(parameter.name.toLowerCase()));
}

export function compileOperation(
  document: LoadedDocument,
  validators: SchemaValidators,
  operation: Operation,
): CompiledOperation {
  const parameters = operation.parameters.filter(described).map((parameter) => ({
    ...parameter,
    resolvedSchema:
      parameter.schema && (valueAt(document.dereferenced, parameter.schema.pointer) as JsonSchema | undefined),
    validate: parameter.schema && validators.at(parameter.schema.pointer),
  }));
  const media = operation.requestBody && jsonMediaType(operation.requestBody.content);
  const bodyValidator = (at: MediaType): Validator | undefined =>
    at.schema && validators.at(at.schema.pointer, 'request');
  const forms = (operation.requestBody?.content ?? []).flatMap((at): FormMedia[] => {
    if (!isFormMediaType(at.mediaType)) return [];
    const essence = essenceOf(at.mediaType);
    const kind = essence === 'multipart/form-data' ? 'multipart' : 'urlencoded';
    const schema = at.schema && (valueAt(document.dereferenced, at.schema.pointer) as JsonSchema | undefined);
    return [{ essence, kind, schema, validate: bodyValidator(at), encodedOnly: encodedOnlyFields(document, at) }];
  });
  return {
    operation,
    parameters,
    queryNames: new Set(parameters.filter((parameter) => parameter.in === 'query').map((parameter) => parameter.name)),
    body: operation.requestBody && {
      required: operation.requestBody.required,
      json: media !== undefined,
      validate: media && bodyValidator(media),
      forms,
    },
    headers: deprecationHeaders(operation, document),
    ordinary: ordinaryResponse(operation),
  };
}
