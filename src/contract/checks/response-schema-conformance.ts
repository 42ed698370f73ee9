import { jsonMediaType } from '../../openapi/operations.js';
import type { ResponseCheck } from '../types.js';
import { declaresNonJson, documentedResponse, failure, schemaIssues, show } from './support.js';

/**
 * A documented response's JSON body is valid against its schema (ajv); each failing JSON pointer is
 * named. A body declared as another media type (XML, text) is judged by content-type-conformance.
 */
export const responseSchemaConformance: ResponseCheck = {
  name: 'response-schema-conformance',
  kind: 'response',
  severity: 'error',
  description: 'bodies of documented responses are valid against their schemas',
  inspect(plan, exchange) {
    const response = exchange.response;
    const media = documentedResponse(exchange) && jsonMediaType(documentedResponse(exchange)!.content);
    if (!response || !media?.schema || exchange.request.method === 'HEAD' || declaresNonJson(exchange)) return [];
    if (!response.json?.ok) {
      const why = response.json ? `not valid JSON (${response.json.message})` : 'empty';
      return [
        failure(this.name, this.severity, exchange, `${response.status} body is ${why} for ${exchange.purpose}`, {
          expected: `JSON valid against ${media.schema.pointer}`,
          actual: show(response.text),
        }),
      ];
    }
    const body = response.json.value;
    return schemaIssues(plan, media.schema.pointer, body, 'response').map((issue) =>
      failure(
        this.name,
        this.severity,
        exchange,
        `${response.status} body: ${issue.pointer || '(root)'} ${issue.message}`,
        {
          expected: `valid against ${media.schema!.pointer}`,
          actual: show(body),
          pointer: issue.pointer,
        },
      ),
    );
  },
};
