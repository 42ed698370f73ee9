import type { CheckFailure, ScenarioCheck } from '../types.js';
import {
  createsIdentifiedResources,
  failure,
  generation,
  isSuccess,
  jsonBody,
  readById,
  sameJson,
  show,
  validRequest,
} from './support.js';
import { validObject } from '../../openapi/generate.js';

/** A client-sent id is not honoured: the service assigns ids (refusing the request is fine too). */
export const serverAssignedId: ScenarioCheck = {
  name: 'server-assigned-id',
  kind: 'scenario',
  severity: 'error',
  description: 'a client-sent id is ignored or refused, never used',
  skipReason(operation, _plan, settings) {
    return createsIdentifiedResources(operation, settings);
  },
  async run(context) {
    const { operation } = context;
    const idProperty = operation.idProperty!;
    const chosen = 900_000_000 + context.random.int(0, 99_999_999);
    const value = { ...validObject(operation.body!.schema, generation(context), 'all'), [idProperty]: chosen };
    const exchange = await context.send({
      ...validRequest(context, operation, 'a create'),
      body: { value },
      purpose: `a create that sends ${idProperty} ${chosen}`,
    });
    const failures: CheckFailure[] = [];
    const returned = jsonBody(exchange) as Record<string, unknown> | undefined;
    if (isSuccess(exchange) && returned && typeof returned === 'object' && sameJson(returned[idProperty], chosen)) {
      failures.push(
        failure(this.name, this.severity, exchange, `used the client-sent ${idProperty} ${chosen}`, {
          expected: `a service-assigned ${idProperty}`,
          actual: show(returned),
        }),
      );
    }
    const read = operation.collection ? context.plan.collection(operation.collection).read : undefined;
    if (isSuccess(exchange) && read && failures.length === 0) {
      const lookup = await readById(context, read, chosen, `reading ${idProperty} ${chosen}, which the client sent`);
      const found = jsonBody(lookup) as Record<string, unknown> | undefined;
      const nameProperty = Object.keys(value).find((name) => typeof value[name] === 'string');
      if (isSuccess(lookup) && found && nameProperty && sameJson(found[nameProperty], value[nameProperty])) {
        failures.push(
          failure(
            this.name,
            this.severity,
            lookup,
            `the resource was stored under the client-sent ${idProperty} ${chosen}`,
            { expected: 'nothing at that id', actual: show(found) },
          ),
        );
      }
    }
    return { failures };
  },
};
