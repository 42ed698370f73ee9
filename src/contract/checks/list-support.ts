import type { PlannedOperation } from '../plan.js';
import type { CheckContext, Exchange } from '../types.js';
import { rememberCreated } from './created-writes.js';
import { generation, testDataBody } from './generation.js';
import { knownPathValues } from './path-values.js';
import { jsonBody } from './response-body.js';
import { isSuccess } from './response-status.js';
import { requiredQuery } from './valid-request.js';

/** Lists with `query`; returns the exchange and the items when the answer is a 2xx array. */
export async function list(
  context: CheckContext,
  query: Record<string, string>,
  purpose: string,
  intent: Exchange['intent'] = 'valid',
): Promise<{ exchange: Exchange; items: unknown[] | undefined }> {
  const operation = context.operation;
  // A sub-resource is listed under the parents its creates and reads use (`readList`).
  const exchange = await context.send({
    operation,
    intent,
    purpose,
    pathParams: knownPathValues(context, operation),
    query: { ...requiredQuery(context, operation), ...query },
  });
  const body = jsonBody(exchange);
  const items = isSuccess(exchange) && Array.isArray(body) ? body : undefined;
  return { exchange, items };
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
