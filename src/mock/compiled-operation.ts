import type { LoadedDocument } from '../openapi/load.js';
import { valueAt } from '../openapi/json-pointer.js';
import type { JsonSchema } from '../openapi/openapi-types.js';
import {
  jsonMediaType,
  type MediaType,
  type Operation,
  type OperationParameter,
  type OperationResponse,
} from '../openapi/operations.js';
import type { SchemaValidators, Validator } from '../openapi/validators.js';
import type { RoutedOperation } from '../http/responder.js';
import { deprecationHeaders } from './deprecation.js';

/** A parameter with its dereferenced schema (for coercion) and its compiled validator. */
export interface CompiledParameter extends OperationParameter {
  resolvedSchema: JsonSchema | undefined;
  validate: Validator | undefined;
  /** The router's name for a path parameter (`user-id` becomes `p0`: path-to-regexp wants identifiers). */
  routeKey: string;
  /** `style` of the parameter (`matrix`, `label`, `simple`, `form`…) as the document writes it. */
  style: string | undefined;
}

/** A documented form body: its media type, how it is parsed, and its (request view) validator. */
export interface FormMedia {
  essence: string;
  kind: 'urlencoded' | 'multipart';
  schema: JsonSchema | undefined;
  validate: Validator | undefined;
}

const FORM_KINDS: Record<string, FormMedia['kind']> = {
  'application/x-www-form-urlencoded': 'urlencoded',
  'multipart/form-data': 'multipart',
};

/** Everything the mock needs per operation, computed once at start-up. */
export interface CompiledOperation extends RoutedOperation {
  /** Route pattern for @koa/router (`/pets/:petId`); OpenAPI `{x}` means something else to path-to-regexp 8. */
  routePath: string;
  parameters: CompiledParameter[];
  /**
   * Present when the operation takes a body; `json` false means no JSON media type is documented.
   * `forms` are the documented form media types (urlencoded, multipart), read and validated too.
   */
  body: { required: boolean; json: boolean; validate: Validator | undefined; forms: FormMedia[] } | undefined;
  /** Extra headers on every response of this operation (deprecation signals). */
  headers: Record<string, string>;
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

/** `/pets/{petId}` → `/pets/:petId`; names that are not identifiers are renamed positionally. */
export function routePathOf(template: string): { routePath: string; names: Map<string, string> } {
  const names = new Map<string, string>();
  let index = 0;
  const routePath = template.replace(/\{([^}]+)\}/g, (_whole, name: string) => {
    const safe = /^[A-Za-z_$][\w$]*$/.test(name) ? name : `p${index}`;
    index += 1;
    names.set(safe, name);
    return `:${safe}`;
  });
  return { routePath, names };
}

/** The parameter object's `style`, read beside its schema (`…/parameters/0/schema` → `…/parameters/0`). */
function styleOf(spec: LoadedDocument, parameter: OperationParameter): string | undefined {
  if (!parameter.schema) return undefined;
  const object = valueAt(spec.document, parameter.schema.pointer.replace(/\/schema$/, '')) as
    { style?: unknown } | undefined;
  return typeof object?.style === 'string' ? object.style : undefined;
}

export function compileOperation(
  spec: LoadedDocument,
  validators: SchemaValidators,
  operation: Operation,
): CompiledOperation {
  const { routePath, names } = routePathOf(operation.path);
  const routeKeys = new Map([...names].map(([key, name]) => [name, key]));
  const parameters = operation.parameters.map((parameter) => ({
    ...parameter,
    resolvedSchema:
      parameter.schema && (valueAt(spec.dereferenced, parameter.schema.pointer) as JsonSchema | undefined),
    validate: parameter.schema && validators.at(parameter.schema.pointer),
    routeKey: (parameter.in === 'path' && routeKeys.get(parameter.name)) || parameter.name,
    style: styleOf(spec, parameter),
  }));
  const media = operation.requestBody && jsonMediaType(operation.requestBody.content);
  const bodyValidator = (at: MediaType): Validator | undefined =>
    at.schema && validators.at(at.schema.pointer, 'request');
  const forms = (operation.requestBody?.content ?? []).flatMap((at): FormMedia[] => {
    const essence = at.mediaType.split(';')[0]!.trim().toLowerCase();
    const kind = FORM_KINDS[essence];
    if (!kind) return [];
    const schema = at.schema && (valueAt(spec.dereferenced, at.schema.pointer) as JsonSchema | undefined);
    return [{ essence, kind, schema, validate: bodyValidator(at) }];
  });
  return {
    operation,
    routePath,
    parameters,
    body: operation.requestBody && {
      required: operation.requestBody.required,
      json: media !== undefined,
      validate: media && bodyValidator(media),
      forms,
    },
    headers: deprecationHeaders(operation, spec),
    ordinary: ordinaryResponse(operation),
  };
}
