import { defaultCode, ProblemError } from '../../core/problem.js';
import { responseFor, type Operation, type OperationResponse } from '../../openapi/operations.js';
import type { DocumentAnswers } from './document-answers.js';
import type { DocumentedErrors } from './documented-error.js';
import type { HttpResponse } from '../../http/http-response.js';
import type { Preferences } from '../../http/prefer.js';

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
 * The documented response a `Prefer` header forces: its status and headers, the example named
 * (in the media type that holds it); else, for an error status, the document's error body about
 * this request; else the first documented example, else a value generated from the schema
 * (answers.ts: valid, or flagged).
 */
export function cannedResponse(
  answers: DocumentAnswers,
  operation: Operation,
  preferences: Preferences,
  context: CannedContext = {},
): HttpResponse {
  const response = pickResponse(operation, preferences);
  const status = /^\d{3}$/.test(response.status) ? Number(response.status) : (preferences.code ?? 200);
  const challenge: Record<string, string> = status === 401 ? { 'WWW-Authenticate': 'Bearer realm="kennel"' } : {};
  const { example } = preferences;
  if (example !== undefined) {
    const media = response.content.find((candidate) => candidate.examples.has(example));
    if (!media) {
      throw new ProblemError(
        400,
        'invalid_prefer',
        `Prefer: example=${example} is not an example of the ${response.status} response of ${operation.id}; examples: ${exampleNames(operation).join(', ') || 'none'}`,
      );
    }
    const answer = answers.answer(operation, response, status, { accept: media.mediaType, preferences });
    return { ...answer, headers: { ...answer.headers, ...challenge } };
  }
  // A forced error is about this request (its path, its status), not about the example's: a
  // documented example (`No pet with id 42`) is what `Prefer: example=` asks for by name.
  const documentedError = errorBody(operation, status, context);
  if (documentedError) return { ...documentedError, headers: challenge };
  const answer = answers.answer(operation, response, status, { accept: context.accept, preferences });
  return { ...answer, headers: { ...answer.headers, ...challenge } };
}
