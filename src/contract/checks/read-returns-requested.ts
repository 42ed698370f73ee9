import { pathParamsAt } from '../prepare/url-operation.js';
import type { PlannedOperation } from '../prepare/plan.js';
import type { CheckContext, CheckFailure, Exchange, ScenarioCheck } from '../types.js';
import { failure, show } from './failure.js';
import { documentsIdSource, fitsParameter } from './path-values.js';
import { readById } from './read-by-id.js';
import { jsonBody } from './response-body.js';
import { isSuccess } from './response-status.js';

/**
 * The key property a read's item parameter names, when its name says so: `id` or `eventId` for
 * the key `eventId`, `petId` or `id` for the key `id`. A parameter that names another property
 * (`/users/{username}` where the key is `id`) tells nothing about the key's value.
 */
function namedKey(parameter: string, key: string): boolean {
  const lower = (text: string) => text.toLowerCase().replace(/[-_]/g, '');
  return lower(parameter) === lower(key) || lower(parameter).endsWith(lower(key)) || parameter === 'id';
}

/** Two spellings of one key: the same text, letter case aside, or the same number (`7`, `007`). */
function sameKey(sent: string, shown: unknown): boolean {
  if (typeof shown !== 'string' && typeof shown !== 'number' && typeof shown !== 'bigint') return true;
  const text = String(shown);
  if (text.toLowerCase() === sent.toLowerCase()) return true;
  return /^-?\d+$/.test(sent) && /^-?\d+$/.test(text) && BigInt(sent) === BigInt(text);
}

/** Known ids read back, at most: spread over what the run saw (the first, the last, between). */
const SAMPLE = 6;

function spread<T>(values: readonly T[]): T[] {
  if (values.length <= SAMPLE) return [...values];
  return Array.from(
    { length: SAMPLE },
    (_, index) => values[Math.round((index * (values.length - 1)) / (SAMPLE - 1))]!,
  );
}

/** The key the read's item parameter names, or undefined when the read shows no way to tell. */
function keyOf(operation: PlannedOperation): { key: string; parameter: string } | undefined {
  const resource = operation.resource;
  const key = resource?.key?.property;
  const parameter = resource?.itemParameter;
  if (operation.role !== 'read' || !key || !parameter) return undefined;
  if (resource.itemPath !== operation.operation.path || !namedKey(parameter, key)) return undefined;
  return { key, parameter };
}

function judged(check: string, exchange: Exchange, key: string, parameter: string): CheckFailure[] {
  if (!isSuccess(exchange)) return [];
  const body = jsonBody(exchange);
  if (body === null || typeof body !== 'object' || Array.isArray(body) || !(key in body)) return [];
  const sent = pathParamsAt(exchange.operation.operation.path, exchange.request.url)?.[parameter];
  const shown = (body as Record<string, unknown>)[key];
  if (sent === undefined || sameKey(sent, shown)) return [];
  return [
    failure(check, 'error', exchange, `a read of ${key} ${sent} answered another item`, {
      expected: `${key} ${sent}`,
      actual: `${key} ${show(shown)}`,
    }),
  ];
}

/**
 * A read by id answers the item asked for: ids the deployment showed (listed, searched, created)
 * are read back, and where the item parameter names the key property
 * (`/performances/{performanceId}` → `id`) a 2xx body that shows the key shows that id, not
 * another item's (a lookup that ignores the id, an off-by-one, a default item).
 */
export const readReturnsRequested: ScenarioCheck = {
  name: 'read-returns-requested',
  kind: 'scenario',
  severity: 'error',
  description: 'a read by id answers the item whose id was asked for',
  skipReason(operation) {
    if (operation.role !== 'read') return 'not an operation that reads one resource by id';
    return keyOf(operation) ? undefined : 'its path parameter does not name the key property';
  },
  async run(context: CheckContext) {
    const { operation } = context;
    const { key, parameter } = keyOf(operation)!;
    const schema = operation.parameters.find((candidate) => candidate.in === 'path' && candidate.name === parameter);
    const ids = spread(
      [...new Set(context.state.pool.ids(operation.collection).map(String))].filter(
        (id) => !schema || fitsParameter(context.plan, schema, id),
      ),
    );
    if (ids.length === 0 && !documentsIdSource(context.plan, operation.collection))
      return {
        failures: [],
        skipped: `the document gives no way to learn a ${key} of ${operation.collection} (no operation lists or creates them)`,
      };
    if (ids.length === 0) return { failures: [], unexercised: `the run saw no ${key} of ${operation.collection}` };
    const reads = await Promise.all(
      ids.map((id) => readById(context, operation, id, `reading ${key} ${id}, an id the deployment showed`)),
    );
    const failures = reads.flatMap((exchange) => judged(this.name, exchange, key, parameter));
    return {
      failures: failures
        .slice(0, 1)
        .map((first) => ({ ...first, title: `${first.title} (${failures.length} of ${reads.length})` })),
    };
  },
};
