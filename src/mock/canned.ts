import { defaultCode, isErrorBody, ProblemError } from '../core/problem.js';
import type { LoadedDocument } from '../openapi/load.js';
import { valueAt } from '../openapi/json-pointer.js';
import type { JsonSchema } from '../openapi/openapi-types.js';
import { responseFor, type MediaType, type Operation, type OperationResponse } from '../openapi/operations.js';
import { sampleOf } from '../openapi/generate.js';
import type { DocumentedErrors } from './documented-error.js';
import type { HttpResponse } from '../http/http-response.js';
import { pickMedia, renderBody } from './response-body.js';
import type { Preferences } from '../http/prefer.js';

function documentedStatuses(operation: Operation): string {
  return operation.responses.map((response) => response.status).join(', ') || 'none';
}

function exampleNames(operation: Operation): string[] {
  return operation.responses.flatMap((response) => response.content.flatMap((media) => [...media.examples.keys()]));
}

function pickResponse(operation: Operation, preferences: Preferences): OperationResponse {
  const { code, example } = preferences;
  if (code !== undefined) {
    const response = Number.isNaN(code) ? undefined : responseFor(operation, code);
    if (!response) {
      throw new ProblemError(
        400,
        'invalid_prefer',
        `Prefer: code=${Number.isNaN(code) ? '?' : code} is not a documented response of ${operation.id}; documented: ${documentedStatuses(operation)}`,
      );
    }
    return response;
  }
  const withExample = operation.responses.find((candidate) =>
    candidate.content.some((media) => media.examples.has(example!)),
  );
  if (!withExample) {
    throw new ProblemError(
      400,
      'invalid_prefer',
      `Prefer: example=${example} names no example of ${operation.id}; examples: ${exampleNames(operation).join(', ') || 'none'}`,
    );
  }
  return withExample;
}

/** Where the forced answer is going: the client's Accept, the path asked for, the document's error words. */
export interface CannedContext {
  accept?: string;
  path?: string;
  errors?: DocumentedErrors;
}

/** The media type to answer with: the one holding the named example, else the one Accept prefers. */
function mediaFor(response: OperationResponse, preferences: Preferences, accept: string | undefined) {
  const { example } = preferences;
  if (example !== undefined) {
    const holding = response.content.find((media) => media.examples.has(example));
    if (holding) return holding;
  }
  return pickMedia(response.content, accept);
}

function exampleOf(
  media: MediaType,
  response: OperationResponse,
  preferences: Preferences,
  operation: Operation,
): { found: boolean; value?: unknown } {
  if (preferences.example !== undefined) {
    if (!media.examples.has(preferences.example)) {
      throw new ProblemError(
        400,
        'invalid_prefer',
        `Prefer: example=${preferences.example} is not an example of the ${response.status} response of ${operation.id}; examples: ${[...media.examples.keys()].join(', ') || 'none'}`,
      );
    }
    return { found: true, value: media.examples.get(preferences.example) };
  }
  const first = media.examples.values().next();
  return first.done ? { found: false } : { found: true, value: first.value };
}

/** A forced error status without an example: the document's own error body, as a real failure would get. */
function errorBody(operation: Operation, status: number, context: CannedContext): HttpResponse | undefined {
  if (status < 400 || !context.errors) return undefined;
  const problem = new ProblemError(status, defaultCode(status), `Response forced by Prefer: code=${status}`);
  const answer = context.errors.answer(operation, problem, { path: context.path ?? '', accept: context.accept });
  if (answer.body === undefined) return { status };
  const text = answer.contentType?.startsWith('text/');
  return {
    status,
    contentType: answer.contentType,
    ...(text ? { text: answer.body } : { json: answer.body }),
  };
}

/**
 * The documented response a `Prefer` header forces: status, example (or a sample, or the
 * document's error body for an error status) in the media type Accept prefers, and its headers.
 */
export function cannedResponse(
  spec: LoadedDocument,
  operation: Operation,
  preferences: Preferences,
  context: CannedContext = {},
): HttpResponse {
  const response = pickResponse(operation, preferences);
  const status = /^\d{3}$/.test(response.status) ? Number(response.status) : (preferences.code ?? 200);
  const headers: Record<string, string> = {};
  if (status === 401) headers['WWW-Authenticate'] = 'Bearer realm="kennel"';
  const media = mediaFor(response, preferences, context.accept);
  if (!media) return { status, headers };
  const resolve = (pointer: string) => valueAt(spec.dereferenced, pointer) as JsonSchema | undefined;
  const example = exampleOf(media, response, preferences, operation);
  if (example.found) return { status, headers, ...renderBody(example.value, media, resolve) };
  const documentedError = errorBody(operation, status, context);
  if (documentedError) return { ...documentedError, headers };
  const schema = media.schema && resolve(media.schema.pointer);
  const sample = sampleOf(schema);
  const body = isErrorBody(sample)
    ? { code: defaultCode(status), message: `Response forced by Prefer: code=${status}`, status }
    : sample;
  return { status, headers, ...renderBody(body, media, resolve) };
}
