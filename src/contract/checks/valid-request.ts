import { validValue } from '../../openapi/generate.js';
import type { PlannedOperation, PlannedParameter } from '../prepare/plan.js';
import { mediaBody } from '../prepare/media-bodies.js';
import { ReferenceFiller } from '../prepare/reference-values.js';
import { defaultParameterValue, parameterText } from '../prepare/request-builder.js';
import type { CheckContext, RequestSpec } from '../types.js';
import { generation } from './generation.js';

/**
 * A request the spec says must succeed: ids of the collections the path names, required
 * parameters, a valid body. Reference slots (`origin`, `departure_id`) take values the deployment
 * showed; those it showed none for are listed in `unresolvedReferences`, and so is a path parameter
 * left to a generated value (a DELETE never takes a seen id): it names nothing the deployment
 * showed, so a 404 for it is fair. A search that answered a non-empty list during discovery is
 * asked the same way again.
 */
export function validRequest(context: CheckContext, operation: PlannedOperation, purpose: string): RequestSpec {
  const filler = new ReferenceFiller(context, operation);
  const values = generation(context, filler);
  const working = context.state.workingQueries.get(operation.id) ?? {};
  const pathParams: Record<string, string> = {};
  const query: Record<string, string> = {};
  const headers: Record<string, string> = {};
  const knownPaths = filler.pathParameters();
  for (const parameter of operation.parameters) {
    const known =
      parameter.in === 'path'
        ? knownPaths[parameter.name]
        : parameter.in === 'cookie'
          ? undefined
          : filler.parameter(parameter.in, parameter.name);
    if (parameter.in === 'path') {
      pathParams[parameter.name] = known ?? defaultParameterValue(parameter);
      if (known === undefined && !enumerated(parameter)) filler.unresolved.add(`path ${parameter.name}`);
    } else if (parameter.in === 'query' && parameter.required)
      query[parameter.name] =
        working[parameter.name] ??
        known ??
        documentedText(parameter) ??
        parameterText(validValue(parameter.resolved, values, parameter.name));
    else if (parameter.in === 'header' && parameter.required && known !== undefined) headers[parameter.name] = known;
  }
  const request: RequestSpec = { operation, intent: 'valid', purpose, pathParams, query };
  if (Object.keys(headers).length > 0) request.headers = headers;
  const finish = (spec: RequestSpec): RequestSpec => {
    for (const name of Object.keys(working)) if (name in query) filler.unresolved.delete(`query ${name}`);
    return { ...spec, unresolvedReferences: [...filler.unresolved] };
  };
  if (operation.body) return finish({ ...request, body: { value: validValue(operation.body.schema, values) } });
  const media = operation.mediaBody && mediaBody(operation.mediaBody.mediaType, operation.mediaBody.schema, values);
  return finish(media ? { ...request, body: { raw: media.raw }, contentType: media.contentType } : request);
}

/**
 * The query a list needs to answer at all: its required parameters as `validRequest` fills them
 * (the references a search takes, the query that worked in discovery). Checks that read a list
 * their own way add their parameters on top.
 */
export function requiredQuery(context: CheckContext, list: PlannedOperation): Record<string, string> {
  if (!list.parameters.some((parameter) => parameter.in === 'query' && parameter.required)) return {};
  return validRequest({ ...context, operation: list }, list, `${list.id}`).query ?? {};
}

/** A documented example of a parameter (its own, or its schema's), as text. */
function documentedText(parameter: PlannedParameter): string | undefined {
  const schema = typeof parameter.resolved === 'object' ? parameter.resolved : {};
  const example: unknown =
    parameter.example ?? schema.example ?? (Array.isArray(schema.examples) ? schema.examples[0] : undefined);
  return example === undefined ? undefined : parameterText(example);
}

/** A parameter whose every value the document lists (an enum or a const): none of them is invented. */
function enumerated(parameter: PlannedParameter): boolean {
  const schema = typeof parameter.resolved === 'object' ? parameter.resolved : {};
  return Array.isArray(schema.enum) || 'const' in schema;
}
