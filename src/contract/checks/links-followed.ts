import { linksOf, linksTo, type ResourceLink } from '../../openapi/resource-links.js';
import { evaluate } from '../prepare/link-expressions.js';
import type { PlannedOperation } from '../prepare/plan.js';
import { parameterText } from '../prepare/request-builder.js';
import type { CheckContext, CheckFailure, Exchange, RequestSpec, ScenarioCheck } from '../types.js';
import { rememberCreated } from './created-writes.js';
import { failure } from './failure.js';
import { isSuccess, statusText } from './response-status.js';
import { validRequest } from './valid-request.js';

/** The link is documented under the status the source answered (`201`, `2XX`, or `default`). */
function documentedFor(link: ResourceLink, status: number): boolean {
  return (
    link.status === String(status) ||
    link.status.toUpperCase() === `${Math.floor(status / 100)}XX` ||
    link.status === 'default'
  );
}

/** `path.petId` or `petId`: the target parameter a link parameter names. */
function targetParameter(target: PlannedOperation, key: string) {
  const qualified = /^(path|query|header|cookie)\.(.+)$/.exec(key);
  const name = qualified ? qualified[2]! : key;
  return target.parameters.find(
    (parameter) => parameter.name === name && (!qualified || parameter.in === qualified[1]),
  );
}

/** The target request with the link's values, or why the source's answer cannot give them. */
function linkedRequest(
  context: CheckContext,
  link: ResourceLink,
  target: PlannedOperation,
  source: Exchange,
): { request: RequestSpec } | { missing: string } {
  const request = validRequest(context, target, `${target.id} through link ${link.name} of ${link.from}`);
  const pathParams = { ...request.pathParams };
  const query = { ...request.query };
  const headers: Record<string, string> = {};
  for (const [key, expression] of Object.entries(link.parameters)) {
    const parameter = targetParameter(target, key);
    if (!parameter) continue; // a parameter the target does not have: nothing to send
    const value = evaluate(expression, source);
    if (!value.ok) return { missing: value.reason };
    const text = parameterText(value.value);
    if (parameter.in === 'path') pathParams[parameter.name] = text;
    else if (parameter.in === 'query') query[parameter.name] = text;
    else if (parameter.in === 'header') headers[parameter.name] = text;
  }
  return { request: { ...request, pathParams, query, headers, body: request.body } };
}

/**
 * OpenAPI `links`: after a successful response, each link documented for its status is followed
 * (`$response.body#/id` into the target's `petId`), and the target, given what the source just
 * returned, must answer with a 2xx. Only links to safe operations (GET, HEAD) are followed.
 */
export const linksFollowed: ScenarioCheck = {
  name: 'links-followed',
  kind: 'scenario',
  severity: 'error',
  description: 'each documented link, followed with the values of a successful response, answers with a 2xx',
  skipReason(operation, plan, settings) {
    if (linksOf(plan.document.document, operation.operation).length === 0) return 'the operation documents no links';
    if (operation.successStatuses.length === 0) return 'the operation documents no successful response';
    if (settings.readOnly && !operation.safe) return 'read-only run: the operation changes state';
    return undefined;
  },
  async run(context) {
    const { operation, plan } = context;
    const base = validRequest(context, operation, `${operation.id}, to follow its links`);
    const source = await context.send(base);
    if (base.body && 'value' in base.body) rememberCreated(context, base.body.value, source);
    const status = source.response?.status;
    if (status === undefined || !isSuccess(source))
      return { failures: [], unexercised: `${operation.id} answered ${statusText(source)}: no link to follow` };
    const links = linksOf(plan.document.document, operation.operation).filter((link) => documentedFor(link, status));
    if (links.length === 0) return { failures: [], skipped: `no link is documented for status ${status}` };
    const failures: CheckFailure[] = [];
    let followed = 0;
    for (const link of links) {
      const target = plan.all.find((candidate) => linksTo(link, candidate.operation));
      if (!target) {
        failures.push(
          failure(this.name, 'warning', source, `link ${link.name} names ${link.target}, no operation of the document`),
        );
        continue;
      }
      if (!target.safe || target.successStatuses.length === 0) continue;
      const built = linkedRequest(context, link, target, source);
      if ('missing' in built) {
        failures.push(
          failure(
            this.name,
            'warning',
            source,
            `link ${link.name} cannot be followed: ${built.missing} in the ${status} response`,
            {
              expected: `a value for every parameter of link ${link.name}`,
              actual: statusText(source),
            },
          ),
        );
        continue;
      }
      followed += 1;
      const answer = await context.send(built.request);
      if (isSuccess(answer) || answer.response === undefined || answer.response.status >= 500) continue;
      failures.push(
        failure(
          this.name,
          this.severity,
          answer,
          `link ${link.name} from ${operation.id} (${status}) to ${target.id} answered ${answer.response.status}`,
          {
            expected: `a documented 2xx (${target.successStatuses.join(', ')})`,
            actual: statusText(answer),
            operationId: operation.id,
          },
        ),
      );
    }
    if (followed === 0 && failures.length === 0) return { failures, skipped: 'no link leads to a safe operation' };
    return { failures };
  },
};
