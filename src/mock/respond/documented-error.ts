import { http } from '../commonjs.js';
import { ProblemError } from '../../core/problem.js';
import { sampleOf } from '../../openapi/generate.js';
import { generatedBody, type BodySource } from './answer-body.js';
import { valueAt } from '../../openapi/json-pointer.js';
import type { LoadedDocument } from '../../openapi/load.js';
import type { JsonSchema } from '../../openapi/openapi-types.js';
import {
  essenceOf,
  isJsonMediaType,
  jsonMediaType,
  responseFor,
  type MediaType,
  type Operation,
  type OperationResponse,
} from '../../openapi/operations.js';
import { errorShapesOf } from '../../openapi/error-shapes.js';
import { objectShape } from '../../openapi/schema-shape.js';
import type { SchemaValidators, Validator } from '../../openapi/validators.js';
import { errorJson } from './problems.js';
import { PathParameterProblem } from '../request/request-input.js';
import { isProblemJson, isTextMediaType, isXmlMediaType, negotiate } from './media-negotiation.js';
import { JSON_CONTENT_TYPE } from '../../http/http-response.js';

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
  return http.STATUS_CODES[status] ?? 'Error';
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
  readonly #document: LoadedDocument;
  readonly #validators: SchemaValidators;

  /** The error shape most operations document (for those that document none); computed on first use. */
  #documentShape: OperationResponse | null | undefined;

  constructor(document: LoadedDocument, validators: SchemaValidators) {
    this.#document = document;
    this.#validators = validators;
  }

  /** The JSON error response the document uses most (by schema), or null when it documents none. */
  #shapeOfDocument(): OperationResponse | undefined {
    if (this.#documentShape === undefined) {
      const counts = new Map<string, { response: OperationResponse; count: number }>();
      for (const operation of this.#document.operations) {
        const response = errorShapeOf(operation);
        const pointer = response && jsonMediaType(response.content)?.schema?.pointer;
        if (!response || !pointer) continue;
        const seen = counts.get(pointer) ?? { response, count: 0 };
        seen.count += 1;
        counts.set(pointer, seen);
      }
      const best = [...counts.values()].sort((a, b) => b.count - a.count)[0];
      this.#documentShape = best?.response ?? null;
    }
    return this.#documentShape ?? undefined;
  }

  /** The answer for `problem` raised while serving `operation`. */
  answer(operation: Operation, problem: ProblemError, request: ErrorRequest): ErrorAnswer {
    const status = documentedStatus(operation, problem.status, problem instanceof PathParameterProblem);
    const shown = status === problem.status ? problem : restated(problem, status);
    const documented = responseFor(operation, status);
    if (documented) return this.#answerWith(documented, shown, request);
    // An undocumented status borrows the first error shape whose body can say that status.
    const shapes = [...errorShapesOf(operation), this.#shapeOfDocument()];
    for (const response of shapes) {
      if (!response) continue;
      const answer = this.#answerWith(response, shown, request);
      if (!contradictsStatus(answer, status)) return answer;
    }
    return kennelError(shown);
  }

  #answerWith(response: OperationResponse, shown: ProblemError, request: ErrorRequest): ErrorAnswer {
    const status = shown.status;
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
    const schema = valueAt(this.#document.dereferenced, media.schema.pointer) as JsonSchema | undefined;
    const fills = fillsFor(objectShape(schema).properties, problem, request, problemJson);
    const source = { media, schema, validate, document: this.#document.dereferenced };
    return filled(source, validate, fills);
  }
}

/**
 * Starts from a schema-valid body (the sample; else, when all fills at once do not make the
 * sample valid, a body the generator makes valid: answer-body.ts) and applies each fill that keeps
 * it valid (a fill the schema refuses, such as a message longer than `maxLength`, is left out).
 * A body that is not an object (a documented 401 of `type: number`) is that valid value.
 */
function filled(source: BodySource, validate: Validator, fills: readonly Fill[]): unknown {
  const sample = sampleOf(source.schema, { document: source.document });
  let start: unknown = sample;
  if (validate(sample).length > 0) {
    if (isRecord(sample)) {
      const all = { ...sample, ...Object.fromEntries(fills) };
      if (validate(all).length === 0) return all;
    }
    const generated = generatedBody(source);
    if (generated.violations.length > 0) return undefined;
    start = generated.value;
  }
  if (!isRecord(start)) return start;
  const body = { ...start };
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

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function errorShapeOf(operation: Operation): OperationResponse | undefined {
  return errorShapesOf(operation)[0];
}

/** Status fields of a borrowed body that name another status (a 403 shape whose `status` enum is 403). */
function contradictsStatus(answer: ErrorAnswer, status: number): boolean {
  if (answer.body === undefined) return false;
  let body: unknown;
  try {
    body = JSON.parse(answer.body);
  } catch {
    return false;
  }
  if (!isRecord(body)) return false;
  return ['status', 'statusCode', 'httpStatus'].some(
    (name) =>
      (typeof body[name] === 'number' || typeof body[name] === 'string') &&
      /^\d{3}$/.test(String(body[name])) &&
      Number(body[name]) !== status,
  );
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
 * refuses where the document documents 422 and not 400, and the other way round; 403 for
 * missing or wrong credentials where it documents 403 and no 401.
 */
export function documentedStatus(operation: Operation, status: number, badPathParameter = false): number {
  const documents = (code: number) => operation.responses.some((response) => response.status === String(code));
  const range = operation.responses.some((response) => response.status.toUpperCase() === '4XX');
  if (badPathParameter && !documents(404) && !range && (documents(400) || documents(422))) status = 400;
  if (status === 400 && !documents(400) && documents(422)) return 422;
  if (status === 422 && !documents(422) && documents(400)) return 400;
  // Missing credentials where the document only documents 403 (as many APIs answer them): its 403.
  if (status === 401 && !documents(401) && !range && documents(403)) return 403;
  return status;
}

/**
 * The media type to answer with: one the client accepts, JSON kinds first (problem+json before
 * others), then text, then another type with a schema (a Swagger 2 `produces` of
 * `application/vnd.docker.raw-stream` gives its errors that type): its body is written as JSON.
 */
function pickMedia(content: readonly MediaType[], accept: string | undefined): MediaType | undefined {
  const json = content.filter((media) => isJsonMediaType(media.mediaType));
  const ordered = [
    ...json.filter((media) => isProblemJson(media.mediaType)),
    ...json.filter((media) => !isProblemJson(media.mediaType)),
    ...content.filter((media) => isTextMediaType(media.mediaType)),
    ...content.filter((media) => writtenAsJson(media)),
  ];
  const chosen = negotiate(
    accept,
    ordered.map((media) => media.mediaType),
  );
  return ordered.find((media) => media.mediaType === chosen) ?? ordered[0];
}

/** A media type neither JSON, text nor XML whose schema kennel can fill, as JSON. */
function writtenAsJson(media: MediaType): boolean {
  const { mediaType } = media;
  return (
    media.schema !== undefined &&
    !isJsonMediaType(mediaType) &&
    !isTextMediaType(mediaType) &&
    !isXmlMediaType(mediaType)
  );
}

function contentTypeOf(mediaType: string): string {
  const essence = essenceOf(mediaType);
  if (essence === 'application/json' || essence === '*/*' || essence.includes('*')) return JSON_CONTENT_TYPE;
  return essence;
}
