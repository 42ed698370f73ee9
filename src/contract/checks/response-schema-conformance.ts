import { valueAt } from '../../openapi/json-pointer.js';
import type { JsonSchema } from '../../openapi/openapi-types.js';
import { jsonMediaType } from '../../openapi/operations.js';
import { fromDocumentedExample } from './documented-examples.js';
import type { ResponseCheck } from '../types.js';
import { failure, show } from './failure.js';
import { declaresNonJson } from './response-body.js';
import { documentedResponse } from './response-status.js';
import { schemaIssues } from './schema-issues.js';

/**
 * A documented response's JSON body is valid against its schema (ajv); each failing JSON pointer is
 * named. A body declared as another media type (XML, text) is judged by content-type-conformance.
 * A failure that is the document's own example breaking its own schema is only a warning.
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
    const schema = valueAt(plan.document.dereferenced, media.schema.pointer) as JsonSchema;
    const examples = [...media.examples.values()];
    return schemaIssues(plan, media.schema.pointer, body, 'response').map((issue) => {
      // The document's own example breaking its own schema: an inconsistency of the document.
      const documents = fromDocumentedExample(schema, body, issue.pointer, examples);
      return failure(
        this.name,
        documents ? 'warning' : this.severity,
        exchange,
        `${response.status} body: ${issue.pointer || '(root)'} ${issue.message}${documents ? " (the document's own example breaks its schema)" : ''}`,
        {
          expected: `valid against ${media.schema!.pointer}`,
          actual: show(body),
          pointer: issue.pointer,
        },
      );
    });
  },
};
