import type { CheckFailure, ScenarioCheck } from '../types.js';
import { sameJson } from './same-json.js';
import { failure, show } from './failure.js';
import { generation } from './generation.js';
import { readById } from './read-by-id.js';
import { jsonBody } from './response-body.js';
import { isSuccess } from './response-status.js';
import { validRequest } from './valid-request.js';
import type { Random } from '../../core/random.js';
import { validObject } from '../../openapi/generate.js';
import { objectShape, primaryType } from '../../openapi/schema-shape.js';
import type { PlannedOperation } from '../prepare/plan.js';
import { idParameter, unlikelyId, createsIdentifiedResources } from './ids.js';
import { noSuccessReason } from './unexercised.js';

/** An id of the id property's type (a string id stays a string) that the deployment is unlikely to hold. */
function clientId(
  operation: PlannedOperation,
  read: PlannedOperation | undefined,
  random: Random,
): string | number | undefined {
  const schema =
    objectShape(operation.body?.schema).properties[operation.idProperty!] ?? (read && idParameter(read)?.resolved);
  const text = unlikelyId(schema, random, 900_000_000);
  const type = primaryType(schema) ?? 'integer';
  return text !== undefined && (type === 'integer' || type === 'number') ? Number(text) : text;
}

/** The request body schema has the id as a writable property: the document lets a client choose it. */
function clientMayChoose(operation: PlannedOperation): boolean {
  const schema = objectShape(operation.body?.schema).properties[operation.idProperty!];
  return schema !== undefined && !(typeof schema === 'object' && schema.readOnly === true);
}

/**
 * A client-sent id is not honoured: the service assigns ids (refusing the request is fine too).
 * An error where the request body has no id (or a readOnly one); where it has a writable id the
 * document lets the client choose, and keeping it is only a warning.
 */
export const serverAssignedId: ScenarioCheck = {
  name: 'server-assigned-id',
  kind: 'scenario',
  severity: 'error',
  description: 'a client-sent id is ignored or refused where the request body has no writable id',
  skipReason(operation, _plan, settings) {
    if (objectShape(operation.body?.schema).required.includes(operation.idProperty ?? ''))
      return `the client names the resource (${operation.idProperty} is required in the body)`;
    // Read by a name (`/user/{username}`): a name the client gives, not an id a service assigns.
    if (operation.idProperty && !/^(id|ID|uuid)$|.Id$|.ID$|_id$/.test(operation.idProperty))
      return `the client names the resource (by ${operation.idProperty})`;
    return createsIdentifiedResources(operation, settings);
  },
  async run(context) {
    const { operation } = context;
    const idProperty = operation.idProperty!;
    const read = operation.collection ? context.plan.collection(operation.collection).read : undefined;
    const chosen = clientId(operation, read, context.random);
    if (chosen === undefined) return { failures: [], skipped: `${idProperty} allows only listed values` };
    const value = { ...validObject(operation.body!.schema, generation(context), 'all'), [idProperty]: chosen };
    const exchange = await context.send({
      ...validRequest(context, operation, 'a create'),
      // The document may not let a client name the resource: refusing this one is fair.
      acceptance: 'plausible',
      body: { value },
      purpose: `a create that sends ${idProperty} ${chosen}`,
    });
    const failures: CheckFailure[] = [];
    const severity = clientMayChoose(operation) ? 'warning' : this.severity;
    const returned = jsonBody(exchange) as Record<string, unknown> | undefined;
    if (isSuccess(exchange) && returned && typeof returned === 'object' && sameJson(returned[idProperty], chosen)) {
      failures.push(
        failure(this.name, severity, exchange, `used the client-sent ${idProperty} ${chosen}`, {
          expected: `a service-assigned ${idProperty}`,
          actual: show(returned),
        }),
      );
    }
    if (isSuccess(exchange) && read && failures.length === 0) {
      // Where the id was ignored, as it should be, nothing is there: the read is for an absent id.
      const lookup = await readById(context, read, chosen, `reading ${idProperty} ${chosen}, which the client sent`, {
        intent: 'absent',
      });
      const found = jsonBody(lookup) as Record<string, unknown> | undefined;
      const nameProperty = Object.keys(value).find((name) => typeof value[name] === 'string');
      if (isSuccess(lookup) && found && nameProperty && sameJson(found[nameProperty], value[nameProperty])) {
        failures.push(
          failure(
            this.name,
            severity,
            lookup,
            `the resource was stored under the client-sent ${idProperty} ${chosen}`,
            { expected: 'nothing at that id', actual: show(found) },
          ),
        );
      }
    }
    // Refusing a client-sent id is fine, but only a deployment that accepts some create shows the
    // refusal was about the id: otherwise nothing was judged.
    const createdBefore = (context.state.created.get(operation.collection!) ?? []).length > 0;
    const unexercised =
      isSuccess(exchange) || createdBefore
        ? undefined
        : `${noSuccessReason([exchange], 'create with a client-sent id')}, and no create of the run succeeded: the refusal says nothing about the id`;
    return { failures, unexercised };
  },
};
