import type * as PrismHttp from '@stoplight/prism-http';
import type { LoadedDocument } from '../openapi/load.js';
import type { Operation } from '../openapi/operations.js';
import { ProblemError } from '../core/problem.js';
import { stringifyJson } from '../core/json.js';
import type { MockResponse } from './mock-response.js';
import type { Preferences } from './prefer.js';
import type { RequestInput } from './request-input.js';

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
  ): Promise<MockResponse> {
    if (!operation.responses.some((response) => /^2/.test(response.status) || response.status === 'default')) {
      throw notSpecified(operation, 'the document shows no successful response for it');
    }
    const { instance, operations } = await this.#load();
    const resource = operations.find(
      (candidate) => candidate.method === operation.method && candidate.path === operation.path,
    );
    if (!resource) throw notSpecified(operation, 'Prism found no such operation');
    // A fresh config object per request: Prism mutates the one it is given (NOTES.md).
    const result = await instance.request(
      {
        method: operation.method,
        url: { path: request.path, query: definedOnly(request.query) },
        headers: lowerCased(request.headers),
        body: input.body.value,
      },
      [resource],
      this.#config(preferences),
    )();
    if (result._tag === 'Left') throw notSpecified(operation, result.left.message);
    const { statusCode, headers, body } = result.right.output;
    const outHeaders: Record<string, string> = {};
    for (const [name, value] of Object.entries(headers ?? {}))
      if (name.toLowerCase() !== 'content-type') outHeaders[name] = String(value);
    return { status: statusCode, json: body === undefined ? undefined : stringifyJson(body), headers: outHeaders };
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
