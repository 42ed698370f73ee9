import { defaultCode, isErrorBody, ProblemError } from '../core/problem.js';
import { stringifyJson } from '../core/json.js';
import type { LoadedDocument } from '../openapi/load.js';
import { valueAt } from '../openapi/json-pointer.js';
import type { JsonSchema } from '../openapi/openapi-types.js';
import { jsonMediaType, responseFor, type Operation, type OperationResponse } from '../openapi/operations.js';
import { sampleOf } from '../openapi/generate.js';
import type { MockResponse } from './mock-response.js';
import type { Preferences } from './prefer.js';

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

function bodyFor(
  response: OperationResponse,
  status: number,
  preferences: Preferences,
  spec: LoadedDocument,
  operation: Operation,
): unknown {
  const media = jsonMediaType(response.content);
  if (!media) return undefined;
  if (preferences.example !== undefined) {
    if (!media.examples.has(preferences.example)) {
      throw new ProblemError(
        400,
        'invalid_prefer',
        `Prefer: example=${preferences.example} is not an example of the ${response.status} response of ${operation.id}; examples: ${[...media.examples.keys()].join(', ') || 'none'}`,
      );
    }
    return media.examples.get(preferences.example);
  }
  const first = media.examples.values().next();
  if (!first.done) return first.value;
  const schema = media.schema && (valueAt(spec.dereferenced, media.schema.pointer) as JsonSchema);
  const sample = sampleOf(schema);
  if (isErrorBody(sample))
    return { code: defaultCode(status), message: `Response forced by Prefer: code=${status}`, status };
  return sample;
}

/** The documented response a `Prefer` header forces: status, example (or a sample) and its headers. */
export function cannedResponse(spec: LoadedDocument, operation: Operation, preferences: Preferences): MockResponse {
  const response = pickResponse(operation, preferences);
  const status = /^\d{3}$/.test(response.status) ? Number(response.status) : (preferences.code ?? 200);
  const body = bodyFor(response, status, preferences, spec, operation);
  const headers: Record<string, string> = {};
  if (status === 401) headers['WWW-Authenticate'] = 'Bearer realm="kennel"';
  return { status, json: body === undefined ? undefined : stringifyJson(body), headers };
}
