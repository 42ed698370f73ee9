import { fragmentToken, pointerOf, valueAt } from './json-pointer.js';
import type {
  ExampleObject,
  HeaderObject,
  JsonSchema,
  MediaTypeObject,
  OpenApiDocument,
  OperationObject,
  ParameterObject,
  ReferenceObject,
  RequestBodyObject,
  ResponseObject,
  SecurityRequirement,
  SecuritySchemeObject,
} from './openapi-types.js';

export const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;
export type HttpMethod = (typeof HTTP_METHODS)[number];

/** A schema together with where it lives in the bundled document (ajv compiles it by that pointer). */
export interface SchemaRef {
  pointer: string;
  schema: JsonSchema;
}

export interface OperationParameter {
  name: string;
  in: ParameterObject['in'];
  required: boolean;
  schema: SchemaRef | undefined;
  /** `style` as written, else its default for the location: `form` in query and cookie, `simple` in path and header. */
  style: string;
  /** `explode` as written, else true for the `form` style only (OpenAPI's default). */
  explode: boolean;
  /** The parameter's description and example, as written (reference inference reads them). */
  description?: string;
  example?: unknown;
  /** `allowEmptyValue` as written (query parameters); undefined when the document says nothing. */
  allowEmptyValue?: boolean;
  /** `allowReserved` as written (query parameters); undefined when the document says nothing. */
  allowReserved?: boolean;
}

export interface MediaType {
  mediaType: string;
  /** Where the media type object lives in the document (`…/content/application~1json`). */
  pointer: string;
  schema: SchemaRef | undefined;
  examples: Map<string, unknown>;
}

export interface OperationResponse {
  /** `200`, `4XX` or `default`, as written in the document. */
  status: string;
  description: string;
  headers: Map<string, { required: boolean; schema: SchemaRef | undefined }>;
  content: MediaType[];
}

export interface OperationSecurity {
  /** Alternatives: any one requirement satisfied is enough; an empty requirement means anonymous. */
  requirements: SecurityRequirement[];
  schemes: Record<string, SecuritySchemeObject>;
}

/** One operation of the document, normalised: `$ref`s to parameters, bodies and responses resolved. */
export interface Operation {
  id: string;
  operationId: string | undefined;
  method: HttpMethod;
  /** The OpenAPI path template, e.g. `/pets/{petId}`. */
  path: string;
  pointer: string;
  summary: string | undefined;
  tags: string[];
  deprecated: boolean;
  parameters: OperationParameter[];
  requestBody: { required: boolean; content: MediaType[] } | undefined;
  responses: OperationResponse[];
  security: OperationSecurity;
  extensions: Record<string, unknown>;
}

interface Located<T> {
  value: T;
  pointer: string;
}

function isReference(value: unknown): value is ReferenceObject {
  return typeof value === 'object' && value !== null && typeof (value as ReferenceObject).$ref === 'string';
}

/** Follows `$ref` chains (non-schema objects) inside the bundled document. */
function resolve<T>(document: OpenApiDocument, value: T | ReferenceObject, pointer: string): Located<T> {
  let current: unknown = value;
  let where = pointer;
  for (let hops = 0; isReference(current); hops += 1) {
    if (hops > 32 || !current.$ref.startsWith('#')) throw new Error(`cannot resolve ${current.$ref} at ${where}`);
    where = current.$ref;
    current = valueAt(document, where);
  }
  return { value: current as T, pointer: where };
}

function schemaRef(schema: JsonSchema | undefined, pointer: string): SchemaRef | undefined {
  return schema === undefined ? undefined : { pointer, schema };
}

function examplesOf(document: OpenApiDocument, media: MediaTypeObject, pointer: string): Map<string, unknown> {
  const examples = new Map<string, unknown>();
  for (const [name, example] of Object.entries(media.examples ?? {})) {
    const resolved = resolve<ExampleObject>(document, example, `${pointer}/examples/${name}`);
    if ('value' in resolved.value) examples.set(name, resolved.value.value);
  }
  if (examples.size === 0 && media.example !== undefined) examples.set('default', media.example);
  return examples;
}

function mediaTypes(
  document: OpenApiDocument,
  content: Record<string, MediaTypeObject> | undefined,
  pointer: string,
): MediaType[] {
  return Object.entries(content ?? {}).map(([mediaType, media]) => {
    const at = `${pointer}/content/${fragmentToken(mediaType)}`;
    return {
      mediaType,
      pointer: at,
      schema: schemaRef(media.schema, `${at}/schema`),
      examples: examplesOf(document, media, at),
    };
  });
}

function parametersOf(
  document: OpenApiDocument,
  pathItem: Record<string, unknown>,
  operation: OperationObject,
  pathPointer: string,
  opPointer: string,
): OperationParameter[] {
  const byKey = new Map<string, OperationParameter>();
  const collect = (list: unknown, listPointer: string): void => {
    (Array.isArray(list) ? list : []).forEach((raw: ParameterObject | ReferenceObject, index) => {
      const { value, pointer } = resolve<ParameterObject>(document, raw, `${listPointer}/${index}`);
      const style = value.style ?? (value.in === 'query' || value.in === 'cookie' ? 'form' : 'simple');
      const flags = value as { allowEmptyValue?: unknown; allowReserved?: unknown };
      byKey.set(`${value.in}:${value.name}`, {
        name: value.name,
        in: value.in,
        required: value.required === true || value.in === 'path',
        schema: schemaRef(value.schema, `${pointer}/schema`),
        style,
        explode: value.explode ?? style === 'form',
        ...(typeof flags.allowEmptyValue === 'boolean' ? { allowEmptyValue: flags.allowEmptyValue } : {}),
        ...(typeof flags.allowReserved === 'boolean' ? { allowReserved: flags.allowReserved } : {}),
        description: typeof value.description === 'string' ? value.description : undefined,
        example: value.example ?? Object.values(value.examples ?? {}).find((item) => 'value' in item)?.value,
      });
    });
  };
  collect(pathItem.parameters, `${pathPointer}/parameters`);
  collect(operation.parameters, `${opPointer}/parameters`);
  return [...byKey.values()];
}

function responsesOf(document: OpenApiDocument, operation: OperationObject, opPointer: string): OperationResponse[] {
  return Object.entries(operation.responses ?? {}).map(([status, raw]) => {
    const { value, pointer } = resolve<ResponseObject>(document, raw, `${opPointer}/responses/${status}`);
    const headers = new Map<string, { required: boolean; schema: SchemaRef | undefined }>();
    for (const [name, rawHeader] of Object.entries(value.headers ?? {})) {
      const header = resolve<HeaderObject>(document, rawHeader, `${pointer}/headers/${fragmentToken(name)}`);
      headers.set(name.toLowerCase(), {
        required: header.value.required === true,
        schema: schemaRef(header.value.schema, `${header.pointer}/schema`),
      });
    }
    return {
      status,
      description: value.description ?? '',
      headers,
      content: mediaTypes(document, value.content, pointer),
    };
  });
}

function securityOf(document: OpenApiDocument, operation: OperationObject): OperationSecurity {
  const schemes: Record<string, SecuritySchemeObject> = {};
  for (const [name, raw] of Object.entries(document.components?.securitySchemes ?? {})) {
    schemes[name] = resolve<SecuritySchemeObject>(document, raw, `#/components/securitySchemes/${name}`).value;
  }
  const requirements = requirementListOf(operation.security) ?? requirementListOf(document.security) ?? [];
  return { requirements, schemes };
}

/**
 * `security` as a list of requirements. A lone requirement object written where the list belongs
 * (`security: {basicAuth: []}`) reads as that one requirement, as its author meant; anything else
 * that is not a list counts as absent. security-notes says so in a warning.
 */
export function requirementListOf(security: unknown): SecurityRequirement[] | undefined {
  if (Array.isArray(security)) return security.filter(isPlainObject) as SecurityRequirement[];
  if (isPlainObject(security)) return [security as SecurityRequirement];
  return undefined;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function extensionsOf(operation: OperationObject): Record<string, unknown> {
  return Object.fromEntries(Object.entries(operation).filter(([key]) => key.startsWith('x-')));
}

/** Lists every operation of a bundled OpenAPI document, in document order. */
export function listOperations(document: OpenApiDocument): Operation[] {
  const operations: Operation[] = [];
  for (const [path, rawItem] of Object.entries(document.paths ?? {})) {
    const pathPointer = pointerOf(['paths', path]);
    const pathItem = resolve<Record<string, unknown>>(document, rawItem, pathPointer).value;
    for (const method of HTTP_METHODS) {
      const operation = pathItem[method] as OperationObject | undefined;
      if (!operation) continue;
      const opPointer = `${pathPointer}/${method}`;
      const body = operation.requestBody
        ? resolve<RequestBodyObject>(document, operation.requestBody, `${opPointer}/requestBody`)
        : undefined;
      operations.push({
        id: operation.operationId ?? `${method.toUpperCase()} ${path}`,
        operationId: operation.operationId,
        method,
        path,
        pointer: opPointer,
        summary: operation.summary,
        tags: operation.tags ?? [],
        deprecated: operation.deprecated === true,
        parameters: parametersOf(document, pathItem, operation, pathPointer, opPointer),
        requestBody: body && {
          required: body.value.required === true,
          content: mediaTypes(document, body.value.content, body.pointer),
        },
        responses: responsesOf(document, operation, opPointer),
        security: securityOf(document, operation),
        extensions: extensionsOf(operation),
      });
    }
  }
  return operations;
}

/** The documented response for `status`: an exact code, then its `NXX` range, then `default`. */
export function responseFor(operation: Operation, status: number): OperationResponse | undefined {
  const exact = operation.responses.find((response) => response.status === String(status));
  if (exact) return exact;
  const range = operation.responses.find(
    (response) => response.status.toUpperCase() === `${Math.floor(status / 100)}XX`,
  );
  return range ?? operation.responses.find((response) => response.status === 'default');
}

/** The JSON media type of a response or body, if it has one (`application/json` or `*+json`). */
export function jsonMediaType(content: readonly MediaType[]): MediaType | undefined {
  return content.find((media) => isJsonMediaType(media.mediaType));
}

/** `application/json` of `Application/JSON; charset=utf-8`: the type without parameters, in lower case (media types compare case-insensitively). */
export function essenceOf(mediaType: string): string {
  return mediaType.split(';')[0]!.trim().toLowerCase();
}

/** True for `application/json`, `application/problem+json` and friends (parameters ignored). */
export function isJsonMediaType(mediaType: string): boolean {
  const essence = essenceOf(mediaType);
  return essence === 'application/json' || /^[a-z]+\/[^/]+\+json$/.test(essence) || essence === '*/*';
}

/** True for the form media types, whose fields are an object's properties (urlencoded, multipart). */
export function isFormMediaType(mediaType: string): boolean {
  const essence = essenceOf(mediaType);
  return essence === 'application/x-www-form-urlencoded' || essence === 'multipart/form-data';
}
