import type { PlannedOperation } from '../prepare/plan.js';
import type { CheckContext, Exchange, Intent } from '../types.js';
import { idParameter } from './ids.js';
import { knownPathValues } from './path-values.js';

/** How a read by id is meant and where its item lives. */
export interface ReadByIdOptions {
  /** What the request is meant to be (`absent` for an id nobody created); `valid` by default. */
  intent?: Intent;
  /** A sub-resource's parents (`projectId` of `/projects/{projectId}/tasks/{taskId}`) it was created under. */
  parents?: Record<string, string>;
}

/** Reads one resource through a read operation (`GET /pets/{petId}`), `id` in its path parameter. */
export function readById(
  context: CheckContext,
  read: PlannedOperation,
  id: unknown,
  purpose: string,
  { intent = 'valid', parents = {} }: ReadByIdOptions = {},
): Promise<Exchange> {
  const pathName = idParameter(read)?.name ?? 'id';
  // A sub-resource's parents: those it was created under when known, else ones the run knows.
  const given = Object.fromEntries(
    Object.entries(parents).filter(([name]) => read.parameters.some((p) => p.in === 'path' && p.name === name)),
  );
  const known = { ...knownPathValues({ ...context, operation: read }, read), ...given };
  return context.send({ operation: read, intent, purpose, pathParams: { ...known, [pathName]: String(id) } });
}
