import { errorShapesOf } from '../../openapi/error-shapes.js';
import { jsonMediaType } from '../../openapi/operations.js';
import type { CheckPlan } from '../prepare/plan.js';
import type { CheckFailure, Exchange, ResponseCheck } from '../types.js';
import { failure, show } from './failure.js';
import { declaredMediaType, declaresNonJson } from './response-body.js';
import { documentedResponse } from './response-status.js';
import { schemaIssues } from './schema-issues.js';

/** A JSON error body whose integer `status` is not the HTTP status. */
function statusMismatch(check: string, exchange: Exchange, body: unknown): CheckFailure[] {
  const status = body !== null && typeof body === 'object' ? (body as Record<string, unknown>).status : undefined;
  const actual = exchange.response!.status;
  if ((typeof status !== 'number' && typeof status !== 'bigint') || Number(status) === actual) return [];
  return [
    failure(check, 'error', exchange, `error body says status ${String(status)} but the HTTP status is ${actual}`, {
      expected: `status: ${actual}`,
      actual: show(body),
      pointer: '/status',
    }),
  ];
}

/**
 * The error shape an undocumented error body comes closest to: the operation's own error bodies
 * (error-shapes.ts: what the mock borrows) and the document's. No issues when it fits any of them.
 */
function closestErrorShape(plan: CheckPlan, exchange: Exchange, documentSchema: string, body: unknown) {
  const own = errorShapesOf(exchange.operation.operation).map((response) => jsonMediaType(response.content)?.schema);
  const schemas = [...new Set([...own.map((schema) => schema?.pointer), documentSchema])];
  const judged = schemas
    .filter((schema): schema is string => schema !== undefined)
    .map((schema) => ({ schema, issues: schemaIssues(plan, schema, body, 'response') }));
  return judged.find((shape) => shape.issues.length === 0) ?? judged.at(-1)!;
}

/**
 * A 4xx/5xx the operation documents is judged by its own schema (response-schema-conformance,
 * once); one it documents without a body needs none. An undocumented one should carry the
 * document's error body (the schema most of its 4xx responses share), but the document promises
 * no body for a status it does not list: a warning. A body in one of the operation's own error
 * shapes (its 404's, for an undocumented 401) is as good as the document's. In any JSON error body, an integer `status`
 * property equals the HTTP status (an error: the body contradicts the response it is in).
 */
export const errorBodyConformance: ResponseCheck = {
  name: 'error-body-conformance',
  kind: 'response',
  severity: 'error',
  description: 'error responses carry a valid Error body whose status equals the HTTP status',
  inspect(plan, exchange) {
    const response = exchange.response;
    if (!response || response.status < 400 || exchange.request.method === 'HEAD') return [];
    const documented = documentedResponse(exchange);
    // An error in a media type the document gives this response (an XML error) is not a JSON error body.
    const types = documented?.content.map((media) => media.mediaType.toLowerCase()) ?? [];
    if (declaresNonJson(exchange) && types.includes(declaredMediaType(exchange)!)) return [];
    const body = response.json?.ok ? response.json.value : undefined;
    if (documented || !plan.errorSchema) return statusMismatch(this.name, exchange, body);
    if (!response.json?.ok) {
      return [
        failure(this.name, 'warning', exchange, `${response.status} body is not a JSON error body`, {
          expected: `JSON valid against ${plan.errorSchema}`,
          actual: show(response.text) || '(empty)',
        }),
      ];
    }
    const { schema, issues } = closestErrorShape(plan, exchange, plan.errorSchema, body);
    const failures = issues.map((issue) =>
      failure(
        this.name,
        'warning',
        exchange,
        `${response.status} error body: ${issue.pointer || '(root)'} ${issue.message}`,
        { expected: `valid against ${schema}`, actual: show(body), pointer: issue.pointer },
      ),
    );
    return [...failures, ...statusMismatch(this.name, exchange, body)];
  },
};
