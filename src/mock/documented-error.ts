import { STATUS_CODES } from 'node:http';
import { ProblemError } from '../core/problem.js';
import { sampleOf } from '../openapi/generate.js';
import { valueAt } from '../openapi/json-pointer.js';
import type { LoadedDocument } from '../openapi/load.js';
import type { JsonSchema } from '../openapi/openapi-types.js';
import { isJsonMediaType, responseFor, type MediaType, type Operation } from '../openapi/operations.js';
import { objectShape } from '../openapi/schema-shape.js';
import type { SchemaValidators, Validator } from '../openapi/validators.js';
import { errorJson } from './problems.js';
import { PathParameterProblem } from './request-input.js';
import { essenceOf, isProblemJson, isTextMediaType, negotiate } from './media-negotiation.js';
import { JSON_CONTENT_TYPE } from '../http/http-response.js';

/** How a failure is answered: status, and a body with its content type (none where the document has none). */
export interface ErrorAnswer {
  status: number;
  contentType: string | undefined;
  body: string | undefined;
  /** Set where the documented answer has no body: the message, so that the failure is still explained. */
  note?: string;
}

/** What renders an operation's failures: set by the spec router on `ctx.state.errorScope` once it matched. */
export interface ErrorScope {
  operation: Operation;
  errors: DocumentedErrors;
}

/** The request as the error body may quote it. */
export interface ErrorRequest {
  /** The path asked for (`instance` of a problem+json body). */
  path: string;
  accept: string | undefined;
}

/** Property names that carry a human-readable message, most likely first. */
const MESSAGE_NAMES = ['message', 'detail', 'error_description', 'error', 'description', 'title', 'msg'];

type Fill = [name: string, value: unknown];

function reason(status: number): string {
  return STATUS_CODES[status] ?? 'Error';
}

function typeOf(schema: JsonSchema | undefined): string | undefined {
  if (typeof schema !== 'object') return undefined;
  if (typeof schema.type === 'string') return schema.type;
  if (Array.isArray(schema.type)) return schema.type.find((type) => type !== 'null') as string | undefined;
  return undefined;
}

/**
 * The fields kennel knows how to fill, by property name: the message into the first message-like
 * string, the status into integer `status`/`code`, the stable code string into a string `code`.
 * A problem+json body always gets RFC 9457's members.
 */
function fillsFor(
  properties: Record<string, JsonSchema>,
  problem: ProblemError,
  request: ErrorRequest,
  problemJson: boolean,
): Fill[] {
  const fills: Fill[] = [];
  const declared = (name: string) => name in properties;
  const numeric = (name: string) => ['integer', 'number'].includes(typeOf(properties[name]) ?? '');
  if (problemJson) {
    fills.push(['type', 'about:blank'], ['title', reason(problem.status)], ['status', problem.status]);
    fills.push(['detail', problem.message], ['instance', request.path]);
  }
  const messageName = problemJson ? undefined : MESSAGE_NAMES.find((name) => declared(name) && !numeric(name));
  if (messageName) fills.push([messageName, problem.message]);
  for (const name of ['error', 'title'])
    if (declared(name) && name !== messageName && !numeric(name)) fills.push([name, reason(problem.status)]);
  for (const name of ['status', 'statusCode', 'httpStatus'])
    if (declared(name)) fills.push([name, numeric(name) ? problem.status : String(problem.status)]);
  if (declared('code')) fills.push(['code', numeric('code') ? problem.status : problem.code]);
  return fills;
}

/**
 * Answers failures of matched operations in the document's own words: the status and the body
 * schema it documents for them (exact status, then `4XX`, then `default`), problem+json as RFC 9457,
 * 422 instead of 400 where only 422 is documented. Kennel's `Error` is what remains where the
 * document says nothing, or where no body kennel can make satisfies the documented schema.
 */
export class DocumentedErrors {
  readonly #spec: LoadedDocument;
  readonly #validators: SchemaValidators;

  constructor(spec: LoadedDocument, validators: SchemaValidators) {
    this.#spec = spec;
    this.#validators = validators;
  }

  /** The answer for `problem` raised while serving `operation`. */
  answer(operation: Operation, problem: ProblemError, request: ErrorRequest): ErrorAnswer {
    const status = documentedStatus(operation, problem.status, problem instanceof PathParameterProblem);
    const shown = status === problem.status ? problem : restated(problem, status);
    const response = responseFor(operation, status);
    if (!response) return kennelError(shown);
    if (response.content.length === 0) return { status, contentType: undefined, body: undefined, note: shown.message };
    const media = pickMedia(response.content, request.accept);
    if (!media) return kennelError(shown);
    if (isTextMediaType(media.mediaType))
      return { status, contentType: `${essenceOf(media.mediaType)}; charset=utf-8`, body: shown.message };
    let body: unknown;
    try {
      body = this.#body(media, shown, request);
    } catch {
      body = undefined; // a schema ajv cannot compile: kennel's own Error still answers
    }
    if (body === undefined) return kennelError(shown);
    return { status, contentType: contentTypeOf(media.mediaType), body: JSON.stringify(body) };
  }

  /** A body valid against the media type's schema, or undefined when kennel cannot make one. */
  #body(media: MediaType, problem: ProblemError, request: ErrorRequest): unknown {
    const problemJson = isProblemJson(media.mediaType);
    if (!media.schema) return problemJson ? Object.fromEntries(fillsFor({}, problem, request, true)) : problem.toBody();
    const validate = this.#validators.at(media.schema.pointer, 'response');
    const kennel = problem.toBody();
    if (!problemJson && validate(kennel).length === 0) return kennel;
    const schema = valueAt(this.#spec.dereferenced, media.schema.pointer) as JsonSchema | undefined;
    return filled(schema, validate, fillsFor(objectShape(schema).properties, problem, request, problemJson));
  }
}

/**
 * Starts from a schema-valid sample and applies each fill that keeps it valid (a fill the schema
 * refuses, such as a message longer than `maxLength`, is left out); when the sample alone is not
 * valid, all fills at once must make it so.
 */
function filled(schema: JsonSchema | undefined, validate: Validator, fills: readonly Fill[]): unknown {
  const sample = sampleOf(schema);
  if (typeof sample !== 'object' || sample === null || Array.isArray(sample)) return undefined;
  const body = { ...(sample as Record<string, unknown>) };
  if (validate(body).length > 0) {
    const all = { ...body, ...Object.fromEntries(fills) };
    return validate(all).length === 0 ? all : undefined;
  }
  for (const [name, value] of fills) {
    const had = Object.hasOwn(body, name);
    const before = body[name];
    body[name] = value;
    if (validate(body).length === 0) continue;
    if (had) body[name] = before;
    else delete body[name];
  }
  return body;
}

/** The problem as the status the document wants says it (a bad path parameter as a 400 is an invalid request). */
function restated(problem: ProblemError, status: number): ProblemError {
  if (problem instanceof PathParameterProblem)
    return new ProblemError(status, 'invalid_parameter', `Invalid request: ${problem.sentence}`);
  return new ProblemError(status, problem.code, problem.message);
}

function kennelError(problem: ProblemError): ErrorAnswer {
  return { status: problem.status, contentType: JSON_CONTENT_TYPE, body: errorJson(problem) };
}

/**
 * The status to answer with. A bad path parameter is a 404 unless the operation documents 400 or
 * 422 and no 404 (not even as 4XX): then it is that validation failure. 422 for a request kennel
 * refuses where the document documents 422 and not 400, and the other way round.
 */
export function documentedStatus(operation: Operation, status: number, badPathParameter = false): number {
  const documents = (code: number) => operation.responses.some((response) => response.status === String(code));
  const range = operation.responses.some((response) => response.status.toUpperCase() === '4XX');
  if (badPathParameter && !documents(404) && !range && (documents(400) || documents(422))) status = 400;
  if (status === 400 && !documents(400) && documents(422)) return 422;
  if (status === 422 && !documents(422) && documents(400)) return 400;
  return status;
}

/** The media type to answer with: one the client accepts, JSON kinds first (problem+json before others). */
function pickMedia(content: readonly MediaType[], accept: string | undefined): MediaType | undefined {
  const usable = content.filter((media) => isJsonMediaType(media.mediaType) || isTextMediaType(media.mediaType));
  const ordered = [
    ...usable.filter((media) => isProblemJson(media.mediaType)),
    ...usable.filter((media) => !isProblemJson(media.mediaType) && isJsonMediaType(media.mediaType)),
    ...usable.filter((media) => isTextMediaType(media.mediaType)),
  ];
  const chosen = negotiate(
    accept,
    ordered.map((media) => media.mediaType),
  );
  return ordered.find((media) => media.mediaType === chosen) ?? ordered[0];
}

function contentTypeOf(mediaType: string): string {
  const essence = essenceOf(mediaType);
  if (essence === 'application/json' || essence === '*/*' || essence.includes('*')) return JSON_CONTENT_TYPE;
  return essence;
}
