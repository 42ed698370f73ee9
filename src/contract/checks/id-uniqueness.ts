import { validObject } from '../../openapi/generate.js';
import type { CheckFailure, ScenarioCheck } from '../types.js';
import { noSuccessReason, tallyOf } from './unexercised.js';
import { rememberCreated } from './created-writes.js';
import { failure, show } from './failure.js';
import { generation } from './generation.js';
import { answersItsPathItem, createsIdentifiedResources } from './ids.js';
import { jsonBody } from './response-body.js';
import { isSuccess } from './response-status.js';
import { validRequest } from './valid-request.js';

/** Concurrent creates get distinct ids, distinct from every id this run has seen created. */
export const idUniqueness: ScenarioCheck = {
  name: 'id-uniqueness',
  kind: 'scenario',
  severity: 'error',
  description: 'concurrent creates get distinct ids',
  skipReason(operation, _plan, settings) {
    return createsIdentifiedResources(operation, settings);
  },
  async run(context) {
    const { operation } = context;
    const idProperty = operation.idProperty!;
    const count = Math.max(2, Math.min(10, context.settings.maxExamples));
    const base = validRequest(context, operation, 'a create');
    const bodies = Array.from({ length: count }, () => validObject(operation.body!.schema, generation(context), 'all'));
    const before = [...(context.state.created.get(operation.collection!) ?? [])];
    const exchanges = await Promise.all(
      bodies.map((value, index) =>
        context.send({ ...base, body: { value }, purpose: `concurrent create ${index + 1} of ${count}` }),
      ),
    );
    // Ids are unique within one collection: a sub-resource's items under another parent may reuse them.
    const scope = exchanges[0] && new URL(exchanges[0].request.url).pathname;
    const earlier = new Set(
      before
        .filter((resource) => resource.scope === undefined || resource.scope === scope)
        .map((resource) => show(resource.id)),
    );
    const failures: CheckFailure[] = [];
    const seen = new Map<string, number>();
    exchanges.forEach((exchange, index) => {
      if (!isSuccess(exchange)) return;
      const body = jsonBody(exchange) as Record<string, unknown> | undefined;
      if (!body || typeof body !== 'object' || !(idProperty in body)) return;
      if (answersItsPathItem(exchange, body[idProperty])) return;
      const key = show(body[idProperty]);
      if (seen.has(key) || earlier.has(key)) {
        failures.push(
          failure(this.name, this.severity, exchange, `${idProperty} ${key} was given to more than one resource`, {
            expected: `a new ${idProperty}`,
            actual: key,
          }),
        );
      }
      seen.set(key, index);
      rememberCreated(context, bodies[index]!, exchange);
    });
    const identified = exchanges.filter((exchange) => {
      const body = jsonBody(exchange);
      if (!isSuccess(exchange) || body === null || typeof body !== 'object' || !(idProperty in body)) return false;
      return !answersItsPathItem(exchange, (body as Record<string, unknown>)[idProperty]);
    });
    // Uniqueness needs two ids to compare: fewer means nothing was judged.
    const unexercised =
      identified.length >= 2
        ? undefined
        : identified.length === 0
          ? noSuccessReason(exchanges, 'concurrent create')
          : `only 1 of ${count} concurrent creates answered 2xx with ${idProperty}: ${tallyOf(exchanges)}`;
    return { failures, unexercised };
  },
};
