import { valueAt } from '../../openapi/json-pointer.js';
import type { JsonSchema } from '../../openapi/openapi-types.js';
import { coerceParameter } from '../../openapi/parameter-value.js';
import type { ResponseCheck } from '../types.js';
import { failure } from './failure.js';
import { documentedResponse } from './response-status.js';
import { schemaIssues } from './schema-issues.js';

/** Headers a documented response declares: required ones present, every present one valid. */
export const responseHeadersConformance: ResponseCheck = {
  name: 'response-headers-conformance',
  kind: 'response',
  severity: 'error',
  description: 'documented response headers are present when required and valid',
  inspect(plan, exchange) {
    const documented = documentedResponse(exchange);
    if (!documented || !exchange.response) return [];
    const failures = [];
    for (const [name, header] of documented.headers) {
      if (name === 'content-type') continue;
      const value = exchange.response.headers[name];
      if (value === undefined) {
        if (header.required)
          failures.push(
            failure(this.name, this.severity, exchange, `required header ${name} is missing`, {
              expected: `a ${name} header`,
              actual: '(absent)',
            }),
          );
        continue;
      }
      if (!header.schema) continue;
      const coerced = coerceParameter(
        value,
        valueAt(plan.document.dereferenced, header.schema.pointer) as JsonSchema | undefined,
        false,
      );
      const issues = coerced.ok
        ? schemaIssues(plan, header.schema.pointer, coerced.value)
        : [{ pointer: '', message: coerced.message }];
      for (const issue of issues)
        failures.push(
          failure(this.name, this.severity, exchange, `header ${name} ${issue.message}`, {
            expected: `valid against ${header.schema.pointer}`,
            actual: value,
          }),
        );
    }
    return failures;
  },
};
