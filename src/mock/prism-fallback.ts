import type * as PrismHttp from '@stoplight/prism-http';
import type { LoadedDocument } from '../openapi/load.js';
import { valueAt } from '../openapi/json-pointer.js';
import type { JsonSchema } from '../openapi/openapi-types.js';
import { responseFor, type Operation, type OperationResponse } from '../openapi/operations.js';
import { ProblemError } from '../core/problem.js';
import { ordinaryResponse, statusOf } from './compiled-operation.js';
import { pickMedia, renderBody } from './response-body.js';
import type { HttpResponse } from '../http/http-response.js';
import type { Preferences } from '../http/prefer.js';
import type { RequestInput } from '../http/responder.js';

/** The request as Prism sees it: path relative to the base path, query and headers as sent. */
export interface FallbackRequest {
  path: string;
  query: Record<string, string | string[] | undefined>;
  headers: Record<string, string | string[] | undefined>;
}

type PrismModule = typeof PrismHttp;
interface PrismEngine {
  instance: ReturnType<PrismModule['createInstance']>;
  operations: Awaited<ReturnType<PrismModule['getHttpOperationsFromSpec']>>;
}

const noop = (): void => undefined;
/** Prism wants a pino-like logger with a `success` level; kennel logs requests itself. */
const silentLogger = {
  trace: noop,
  debug: noop,
  info: noop,
  warn: noop,
  error: noop,
  fatal: noop,
  success: noop,
  child: () => silentLogger,
  level: 'silent',
};

/**
 * Answers operations kennel has no stateful handler for with @stoplight/prism-http's mocker
 * (examples, or schema-generated data with `Prefer: dynamic=true`). Prism is imported on first
 * use: loading it costs ~0.5 s and ~90 MB, which the pet routes never need.
 */
export class PrismFallback {
  readonly #spec: LoadedDocument;
  readonly #seed: number;
  #engine: Promise<PrismEngine> | undefined;

  constructor(spec: LoadedDocument, seed: number) {
    this.#spec = spec;
    this.#seed = seed;
  }

  async respond(
    operation: Operation,
    request: FallbackRequest,
    input: RequestInput,
    preferences: Preferences,
  ): Promise<HttpResponse> {
    const ordinary = ordinaryResponse(operation);
    if (!ordinary) throw notSpecified(operation, 'the document documents no response for it');
    if (operation.extensions['x-behaviour-not-shown'] === true || onlyAuthFailures(operation))
      throw notSpecified(operation, 'the document shows no successful response for it');
    // Only redirects or failures documented: the first of them is the answer, not a 501.
    const code = preferences.code ?? (answersOrdinarily(ordinary) ? undefined : statusOf(ordinary));
    const target = code === undefined ? ordinary : (responseFor(operation, code) ?? ordinary);
    const accept = headerText(request.headers.accept);
    const media = pickMedia(target.content, accept);
    const { instance, operations } = await this.#load();
    const found = operations.find(
      (candidate) => candidate.method === operation.method && candidate.path === operation.path,
    );
    if (!found) throw notSpecified(operation, 'Prism found no such operation');
    // kennel has routed the request already; Prism's router cannot read names like {post.id}.
    const resource = { ...found, path: positionalTemplate(found.path) };
    const headers = lowerCased(request.headers);
    if (media && !media.mediaType.includes('*')) headers.accept = media.mediaType;
    // A fresh config object per request: Prism mutates the one it is given (NOTES.md).
    const result = await instance.request(
      {
        method: operation.method,
        url: { path: request.path, query: definedOnly(request.query) },
        headers,
        body: input.body.value,
      },
      [resource],
      this.#config({ ...preferences, code }),
    )();
    if (result._tag === 'Left') throw notSpecified(operation, result.left.message);
    const { statusCode, headers: prismHeaders, body } = result.right.output;
    const outHeaders: Record<string, string> = {};
    for (const [name, value] of Object.entries(prismHeaders ?? {}))
      if (name.toLowerCase() !== 'content-type') outHeaders[name] = String(value);
    const answered = responseFor(operation, statusCode) ?? target;
    this.#documentedHeaders(answered, outHeaders);
    const answeredMedia = answered === target ? media : pickMedia(answered.content, accept);
    return {
      status: statusCode,
      headers: outHeaders,
      ...renderBody(body, answeredMedia, (pointer) => this.#schemaAt(pointer)),
    };
  }

  /**
   * Adds the documented headers Prism left out, where the document gives a value (the header's
   * `example`, its first `examples` entry, or its schema's example/default): a 301's `Location`.
   */
  #documentedHeaders(response: OperationResponse, into: Record<string, string>): void {
    const present = new Set(Object.keys(into).map((name) => name.toLowerCase()));
    for (const [name, header] of response.headers) {
      if (present.has(name) || name === 'content-type' || !header.schema) continue;
      const object = valueAt(this.#spec.dereferenced, header.schema.pointer.replace(/\/schema$/, '')) as
        { example?: unknown; examples?: Record<string, { value?: unknown }> } | undefined;
      const schema = this.#schemaAt(header.schema.pointer);
      const candidates = [
        object?.example,
        Object.values(object?.examples ?? {})[0]?.value,
        typeof schema === 'object' ? schema.example : undefined,
        typeof schema === 'object' ? schema.default : undefined,
      ];
      const value = candidates.find((candidate) => candidate !== undefined && typeof candidate !== 'object');
      if (value !== undefined) into[name] = String(value);
    }
  }

  #schemaAt(pointer: string): JsonSchema | undefined {
    return valueAt(this.#spec.dereferenced, pointer) as JsonSchema | undefined;
  }

  #config(preferences: Preferences) {
    return {
      checkSecurity: false,
      validateRequest: false,
      validateResponse: false,
      errors: false,
      upstreamProxy: undefined,
      isProxy: false as const,
      mock: {
        dynamic: preferences.dynamic === true,
        code: preferences.code,
        exampleKey: preferences.example,
        seed: String(this.#seed),
      },
    };
  }

  #load(): Promise<PrismEngine> {
    this.#engine ??= (async () => {
      const prism = await import('@stoplight/prism-http');
      const operations = await prism.getHttpOperationsFromSpec(structuredClone(this.#spec.document) as never);
      return { instance: prism.createInstance(this.#config({}), { logger: silentLogger as never }), operations };
    })();
    return this.#engine;
  }
}

function notSpecified(operation: Operation, why: string): ProblemError {
  return new ProblemError(
    501,
    'not_specified',
    `${operation.method.toUpperCase()} ${operation.path} is declared, but its behaviour is not specified (${why}); kennel does not invent one`,
  );
}

/** `/users/{user-id}/posts/{post.id}` → `/users/{p0}/posts/{p1}`: a template any router reads. */
function positionalTemplate(path: string): string {
  let index = 0;
  return path.replace(/\{[^}]+\}/g, () => `{p${index++}}`);
}

/** Only 401/403 documented: the answers to missing credentials, which say nothing of the operation itself. */
function onlyAuthFailures(operation: Operation): boolean {
  return operation.responses.every((response) => response.status === '401' || response.status === '403');
}

/** A 2xx or `default`: Prism answers those unprompted; anything else must be asked for by code. */
function answersOrdinarily(response: { status: string }): boolean {
  return response.status === 'default' || response.status.startsWith('2');
}

function headerText(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value.join(', ') : value;
}

function definedOnly(query: FallbackRequest['query']): Record<string, string | string[]> {
  return Object.fromEntries(
    Object.entries(query).filter((entry): entry is [string, string | string[]] => entry[1] !== undefined),
  );
}

function lowerCased(headers: FallbackRequest['headers']): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers))
    if (value !== undefined) out[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  return out;
}
