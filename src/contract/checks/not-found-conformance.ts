import type { CheckFailure, ScenarioCheck } from '../types.js';
import { idParameter, knowable, unlikelyId } from './ids.js';
import { failure, readById, statusText } from './support.js';

/** A well-formed id that does not exist gets the documented 404, not a 200 with nothing in it. */
export const notFoundConformance: ScenarioCheck = {
  name: 'not-found-conformance',
  kind: 'scenario',
  severity: 'error',
  description: 'unknown ids get the documented 404',
  skipReason(operation) {
    if (operation.role !== 'read') return 'not an operation that reads one resource by id';
    return operation.operation.responses.some((response) => response.status === '404')
      ? undefined
      : 'the operation documents no 404';
  },
  async run(context) {
    const { operation } = context;
    const known = [
      ...context.state.pool.ids(operation.collection!),
      ...(context.state.created.get(operation.collection!) ?? []).map((resource) => resource.id),
    ];
    const parameter = idParameter(operation);
    let absent = unlikelyId(parameter?.resolved, context.random);
    for (let tries = 0; absent !== undefined && known.some((id) => String(id) === absent) && tries < 5; tries += 1)
      absent = unlikelyId(parameter?.resolved, context.random);
    if (absent === undefined) return { failures: [], skipped: 'the id parameter allows only listed values' };
    const exchange = await readById(
      context,
      operation,
      absent,
      `${operation.id} for id ${absent}, which does not exist`,
      'absent',
    );
    const failures: CheckFailure[] = [];
    const status = exchange.response?.status;
    if (status !== undefined && status < 500 && status !== 404) {
      failures.push(
        failure(
          this.name,
          // Where the document gives no way to create (or key) these items, kennel cannot know the id is absent.
          status < 300 && !knowable(operation) ? 'warning' : this.severity,
          exchange,
          `answered ${status} for id ${absent}, which does not exist`,
          { expected: '404', actual: statusText(exchange) },
        ),
      );
    }
    return { failures };
  },
};
