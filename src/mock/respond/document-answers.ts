import { ProblemError } from '../../core/problem.js';
import { Random } from '../../core/random.js';
import { escapeToken, valueAt } from '../../openapi/json-pointer.js';
import type { LoadedDocument } from '../../openapi/load.js';
import type { JsonSchema } from '../../openapi/openapi-types.js';
import { objectShape } from '../../openapi/schema-shape.js';
import { responseFor, type MediaType, type Operation, type OperationResponse } from '../../openapi/operations.js';
import type { SchemaValidators } from '../../openapi/validators.js';
import type { HttpResponse } from '../../http/http-response.js';
import type { Preferences } from '../../http/prefer.js';
import { dynamicBody, exampleBody, generatedBody, issuesOf, type BodySource, type ChosenBody } from './answer-body.js';
import { ordinaryResponse, statusOf } from '../compiled-operation.js';
import { documentedHeaders } from './documented-headers.js';
import { VIOLATIONS_HEADER, capViolations, violationsHeader } from './violation.js';
import { pickMedia, renderBody } from './response-body.js';

/** How the answers are made: seeded, and generated afresh for every request with `dynamic`. */
export interface DocumentAnswerOptions {
  seed: number;
  /** Every answer generated from the schemas (`--dynamic`), as `Prefer: dynamic=true` asks for one. */
  dynamic: boolean;
}

/** What the client asked for beyond its input: its Accept header and its preferences. */
export interface AnswerRequest {
  accept: string | undefined;
  preferences: Preferences;
  /**
   * A JSON object body the answer echoes where its schema declares the same property and the
   * value sent fits there (`echoSent`): set for creates kennel keeps nothing of.
   */
  sent?: Record<string, unknown>;
}

/**
 * Answers the operations kennel keeps no state for from the document alone: the documented
 * response (its lowest 2xx, else `default`, else what it documents), in the media type Accept
 * prefers, with the documented example (a valid one first) or a value generated from the schema
 * that is valid against it, and the documented headers. A body that breaks its schema (only a
 * documented example can) is flagged in `Kennel-Violations`. Static answers are computed once.
 */
export class DocumentAnswers {
  readonly document: LoadedDocument;
  readonly #validators: SchemaValidators;
  readonly #options: DocumentAnswerOptions;
  readonly #random: Random;
  readonly #static = new Map<string, ChosenBody>();

  constructor(document: LoadedDocument, validators: SchemaValidators, options: DocumentAnswerOptions) {
    this.document = document;
    this.#validators = validators;
    this.#options = options;
    this.#random = new Random(options.seed);
  }

  /** The ordinary answer (or the 2xx `Prefer: code=` names) of an operation. */
  respond(operation: Operation, request: AnswerRequest): HttpResponse {
    const ordinary = ordinaryResponse(operation);
    if (!ordinary) throw notSpecified(operation, 'the document documents no response for it');
    if (operation.extensions['x-behaviour-not-shown'] === true || onlyAuthFailures(operation))
      throw notSpecified(operation, 'the document shows no successful response for it');
    const code = request.preferences.code;
    const target = code === undefined ? ordinary : (responseFor(operation, code) ?? ordinary);
    const status = code !== undefined && target !== ordinary ? code : (statusOf(target) ?? 200);
    return this.answer(operation, target, status, request);
  }

  /** The answer a documented response gives: its headers, and its body in the media type Accept prefers. */
  answer(operation: Operation, response: OperationResponse, status: number, request: AnswerRequest): HttpResponse {
    // 101 Switching Protocols and friends promise what a mock cannot carry out (Node would send a
    // bare 101 and no client could read past it).
    if (status < 200) throw notSpecified(operation, `its answer is ${status}, a protocol switch a mock cannot make`);
    const headers = documentedHeaders(this.document, response);
    const media = pickMedia(response.content, request.accept);
    if (!media) return { status, headers };
    const found = this.body(operation, response, media, request.preferences);
    if (!found) return { status, headers };
    const chosen =
      request.sent && request.preferences.example === undefined
        ? echoSent(found, request.sent, this.#source(media))
        : found;
    if (chosen.violations.length > 0) headers[VIOLATIONS_HEADER] = violationsHeader(capViolations(chosen.violations));
    return { status, headers, ...renderBody(chosen.value, media, (pointer) => this.#schemaAt(pointer)) };
  }

  /**
   * The body of `media`: the example `Prefer: example=` names (undefined when that media type has
   * none by that name), a seeded value when dynamic, else the documented example or a generated one.
   */
  body(
    operation: Operation,
    response: OperationResponse,
    media: MediaType,
    preferences: Preferences,
  ): ChosenBody | undefined {
    const source = this.#source(media);
    if (preferences.example !== undefined) return exampleBody(source, preferences.example);
    if (preferences.dynamic ?? this.#options.dynamic) {
      if (!media.schema) return exampleBody(source);
      return dynamicBody(source, this.#random);
    }
    const key = `${operation.pointer}|${response.status}|${media.mediaType}`;
    let chosen = this.#static.get(key);
    if (!chosen) {
      chosen = exampleBody(source) ?? (media.schema ? generatedBody(source) : undefined);
      if (chosen) this.#static.set(key, chosen);
    }
    return chosen;
  }

  #source(media: MediaType): BodySource {
    const schema = media.schema && this.#schemaAt(media.schema.pointer);
    const validate = media.schema && this.#validators.at(media.schema.pointer, 'response');
    return { media, schema, validate: validate && safely(validate), document: this.document.dereferenced };
  }

  #schemaAt(pointer: string): JsonSchema | undefined {
    return valueAt(this.document.dereferenced, pointer) as JsonSchema | undefined;
  }
}

/**
 * The answer with the top-level properties sent copied in, where the answer's schema declares
 * them and each value sent is valid there, the rest of the answer no less valid than it was: a
 * server that took `{merchantAccount, amount}` answers with them, not with the document's
 * sample values. A value that does not fit is left as the answer had it (the document's own).
 */
function echoSent(chosen: ChosenBody, sent: Record<string, unknown>, source: BodySource): ChosenBody {
  const { value } = chosen;
  const validate = source.validate;
  if (!validate || value === null || typeof value !== 'object' || Array.isArray(value)) return chosen;
  const declared = objectShape(source.schema).properties;
  const names = Object.keys(sent).filter((name) => name in declared && sent[name] !== undefined);
  if (names.length === 0) return chosen;
  const fits = (body: Record<string, unknown>, echoed: readonly string[]) => {
    const issues = validate(body);
    const at = (pointer: string, name: string) =>
      pointer === `/${escapeToken(name)}` || pointer.startsWith(`/${escapeToken(name)}/`);
    return (
      issues.length <= chosen.violations.length &&
      !issues.some((issue) => echoed.some((name) => at(issue.pointer, name)))
    );
  };
  const copied = (body: Record<string, unknown>, echoed: readonly string[]) => ({
    ...body,
    ...Object.fromEntries(echoed.map((name) => [name, sent[name]])),
  });
  let body = value as Record<string, unknown>;
  if (fits(copied(body, names), names)) body = copied(body, names);
  else for (const name of names) if (fits(copied(body, [name]), [name])) body = copied(body, [name]);
  return body === value ? chosen : { value: body, violations: issuesOf(source, body) };
}

/** A validator ajv cannot compile judges nothing (the answer is still sent, unflagged). */
function safely(validate: NonNullable<BodySource['validate']>): NonNullable<BodySource['validate']> {
  return (value) => {
    try {
      return validate(value);
    } catch {
      return [];
    }
  };
}

function notSpecified(operation: Operation, why: string): ProblemError {
  return new ProblemError(
    501,
    'not_specified',
    `${operation.method.toUpperCase()} ${operation.path} is declared, but its behaviour is not specified (${why}); kennel does not invent one`,
  );
}

/** Only 401/403 documented: the answers to missing credentials, which say nothing of the operation itself. */
function onlyAuthFailures(operation: Operation): boolean {
  return operation.responses.every((response) => response.status === '401' || response.status === '403');
}
