import type { PlannedOperation } from '../prepare/plan.js';
import type { CheckContext, Exchange } from '../types.js';
import { createdKeyOf } from './created-key.js';
import { rememberCreated } from './created-writes.js';
import { generation, testDataBody } from './generation.js';
import { knownPathValues } from './path-values.js';
import { isSuccess } from './response-status.js';

/** A resource created by `createResources`, with the exchange that created it. */
export interface CreatedId {
  id: unknown;
  exchange: Exchange;
}

/** What the created resources hold beyond their required properties, and where they are created. */
export interface CreateOptions {
  /** Properties set on every body. */
  overrides?: Record<string, unknown>;
  /** Path values of the create (a parent: `{board_id: "7"}`) instead of those the run knows. */
  parents?: Record<string, string>;
}

/**
 * Creates `count` resources at once through the collection's create (required properties plus
 * `overrides`): those created with an id, and every create's exchange (for why none was).
 */
export async function createResources(
  context: CheckContext,
  create: PlannedOperation,
  count: number,
  { overrides = {}, parents = {} }: CreateOptions = {},
): Promise<{ created: CreatedId[]; exchanges: Exchange[] }> {
  const createContext = { ...context, operation: create };
  // Under the parents the run knows, as lists and reads of the sub-collection default to them.
  const pathParams = { ...knownPathValues(createContext, create), ...parents };
  const bodies = Array.from({ length: count }, () => ({
    // The create's own reference slots (`performance_id`) take values the deployment showed.
    ...testDataBody(create.body!.schema, generation(createContext)),
    ...overrides,
  }));
  const exchanges = await Promise.all(
    bodies.map((value, index) =>
      context.send({
        operation: create,
        intent: 'valid',
        purpose: `creating test data in ${create.collection} (${index + 1} of ${count})`,
        body: { value },
        ...(Object.keys(pathParams).length > 0 ? { pathParams } : {}),
      }),
    ),
  );
  const created = exchanges.flatMap((exchange, index) => {
    if (!isSuccess(exchange)) return [];
    rememberCreated(createContext, bodies[index]!, exchange);
    const id = createdKeyOf(create, exchange);
    return id === undefined ? [] : [{ id, exchange }];
  });
  return { created, exchanges };
}

/** Creates resources in `operation`'s collection through its create operation; returns how many succeeded. */
export async function createInCollection(
  context: CheckContext,
  count: number,
  overrides: Record<string, unknown> = {},
): Promise<number> {
  const create: PlannedOperation | undefined = context.operation.collection
    ? context.plan.collection(context.operation.collection).create
    : undefined;
  if (!create || context.settings.readOnly || count <= 0) return 0;
  const createContext = { ...context, operation: create };
  const pathParams = knownPathValues(createContext, create);
  let made = 0;
  for (let start = 0; start < count; start += context.settings.concurrency) {
    const batch = Array.from({ length: Math.min(context.settings.concurrency, count - start) }, () => ({
      ...testDataBody(create.body!.schema, generation(createContext)),
      ...overrides,
    }));
    const results = await Promise.all(
      batch.map((value) =>
        context.send({
          operation: create,
          intent: 'valid',
          purpose: `creating test data in ${create.collection}`,
          pathParams,
          body: { value },
        }),
      ),
    );
    results.forEach((exchange, index) => {
      if (!isSuccess(exchange)) return;
      made += 1;
      rememberCreated(createContext, batch[index]!, exchange);
    });
  }
  return made;
}
