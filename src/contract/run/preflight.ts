import { ToolError } from '../../core/tool-error.js';
import type { CheckPlan, PlannedOperation } from '../prepare/plan.js';
import type { Exchange, RequestSpec } from '../types.js';

/** How many documented operations the preflight asks before the run judges anything. */
const PROBES = 3;

/** Sends one request spec to a base URL (the run's client, or one at another base URL). */
export type PreflightSend = (spec: RequestSpec, baseUrl: string) => Promise<Exchange>;

/** Operations a valid request can reach with nothing learnt yet: GETs without path parameters. */
function probeable(plan: CheckPlan): PlannedOperation[] {
  return plan.operations.filter(
    (operation) => operation.operation.method === 'get' && !operation.operation.path.includes('{'),
  );
}

function probeOf(operation: PlannedOperation): RequestSpec {
  return {
    operation,
    intent: 'valid',
    purpose: 'preflight: does the base URL serve the document, is the key accepted',
  };
}

const label = (operation: PlannedOperation): string => `GET ${operation.operation.path}`;

const documents = (operation: PlannedOperation, status: number): boolean =>
  operation.operation.responses.some((response) => response.status === String(status));

/** The base URL with the document's base path added, when the URL does not end with it already. */
function withBasePath(baseUrl: string, basePath: string): string | undefined {
  const trimmed = baseUrl.replace(/\/+$/, '');
  if (!basePath || basePath === '/' || new URL(trimmed).pathname.replace(/\/+$/, '').endsWith(basePath))
    return undefined;
  return `${trimmed}${basePath}`;
}

/**
 * Before the run judges the deployment, establishes that the verdict would be about the
 * deployment and not about the run: documented operations answer at the base URL (not 404 at
 * every one), and the key is accepted (not 401 at every secured one). Either failing is a
 * ToolError (exit 2) that says which and why. Nothing to probe (no GET without path parameters)
 * decides nothing.
 */
export async function assertRunIsSound(
  plan: CheckPlan,
  baseUrl: string,
  apiKey: string,
  send: PreflightSend,
): Promise<void> {
  const operations = probeable(plan).slice(0, PROBES);
  if (operations.length === 0) return;
  // One at a time: a deployment that hangs holds one request, and an interrupt stops the rest.
  const statuses: (number | undefined)[] = [];
  for (const operation of operations) statuses.push((await send(probeOf(operation), baseUrl)).response?.status);
  if (statuses.some((status) => status === undefined)) return; // a network failure: the checks report it
  if (statuses.every((status) => status === 404)) await wrongBase(plan, operations, baseUrl, send);
  const secured = operations.flatMap((operation, index) =>
    operation.requiresAuth ? [{ operation, status: statuses[index] }] : [],
  );
  if (apiKey !== '' && secured.length > 0 && secured.every(({ status }) => status === 401)) {
    const shown = secured.map(({ operation }) => label(operation)).join(', ');
    throw new ToolError(
      `every request with the key got 401 (${shown}): is the key right? Check --api-key (or KENNEL_API_KEY); nothing was judged`,
    );
  }
}

async function wrongBase(
  plan: CheckPlan,
  operations: PlannedOperation[],
  baseUrl: string,
  send: PreflightSend,
): Promise<void> {
  const first = operations[0]!;
  const candidate = withBasePath(baseUrl, plan.document.basePath);
  if (candidate !== undefined) {
    const answer = await send(probeOf(first), candidate);
    const status = answer.response?.status;
    if (status !== undefined && status !== 404)
      throw new ToolError(
        `${label(first)} answered 404 at ${baseUrl} and ${status} at ${candidate}: did you mean --base-url ${candidate}? (the document's servers are under ${plan.document.basePath}); nothing was judged`,
      );
  }
  // Without a working alternative, only operations that never document a 404 make the case.
  if (operations.some((operation) => documents(operation, 404))) return;
  const shown = operations.map(label).join(', ');
  throw new ToolError(
    `every documented operation tried answered 404 at ${baseUrl} (${shown}): is it the base URL of this API?${plan.document.basePath ? ` (the document's servers are under ${plan.document.basePath})` : ''}; nothing was judged`,
  );
}
