import type { ResponseCheck } from '../types.js';
import { declaredMediaType, declaresNonJson, documentedResponse, failure, schemaIssues, show } from './support.js';

/**
 * Every 4xx/5xx carries the document's error body (the schema its 4xx responses share, `Error`
 * here), and an integer `status` property in it equals the HTTP status.
 */
export const errorBodyConformance: ResponseCheck = {
  name: 'error-body-conformance',
  kind: 'response',
  severity: 'error',
  description: 'error responses carry a valid Error body whose status equals the HTTP status',
  inspect(plan, exchange) {
    const response = exchange.response;
    if (!response || response.status < 400 || !plan.errorSchema || exchange.request.method === 'HEAD') return [];
    // An error in a media type the document gives this response (an XML error) is not a JSON error body.
    const documented = documentedResponse(exchange)?.content.map((media) => media.mediaType.toLowerCase()) ?? [];
    if (declaresNonJson(exchange) && documented.includes(declaredMediaType(exchange)!)) return [];
    if (!response.json?.ok) {
      return [
        failure(this.name, this.severity, exchange, `${response.status} body is not a JSON error body`, {
          expected: `JSON valid against ${plan.errorSchema}`,
          actual: show(response.text) || '(empty)',
        }),
      ];
    }
    const body = response.json.value;
    const failures = schemaIssues(plan, plan.errorSchema, body, 'response').map((issue) =>
      failure(
        this.name,
        this.severity,
        exchange,
        `${response.status} error body: ${issue.pointer || '(root)'} ${issue.message}`,
        { expected: `valid against ${plan.errorSchema}`, actual: show(body), pointer: issue.pointer },
      ),
    );
    const status = body !== null && typeof body === 'object' ? (body as Record<string, unknown>).status : undefined;
    if ((typeof status === 'number' || typeof status === 'bigint') && Number(status) !== response.status) {
      failures.push(
        failure(
          this.name,
          this.severity,
          exchange,
          `error body says status ${String(status)} but the HTTP status is ${response.status}`,
          { expected: `status: ${response.status}`, actual: show(body), pointer: '/status' },
        ),
      );
    }
    return failures;
  },
};
