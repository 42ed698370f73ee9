import type { CheckContext, CheckFailure, Exchange, ScenarioCheck } from '../types.js';
import { idKey, idOf } from './ids.js';
import { createResources, type CreatedId } from './test-data.js';
import { noSuccessReason, tallyOf } from './unexercised.js';
import { failure, show } from './failure.js';
import { parentsInScope } from './path-values.js';
import { readById } from './read-by-id.js';
import { jsonBody } from './response-body.js';
import { isSuccess, statusText } from './response-status.js';

/** Creates made after the ids are taken stock of: enough to push a store past a 100-item cache or ring. */
const MORE_CREATES = 100;
/** Known ids read back at most. */
const MOST_READS = 500;

interface KnownId {
  id: unknown;
  /** Created by this run (else only seen in a list). */
  created: boolean;
  /** The parents it was created under (`{projectId: …}` of `/projects/{projectId}/tasks`). */
  parents?: Record<string, string>;
}

function knownIds(context: CheckContext): Map<string, KnownId> {
  const collection = context.operation.collection!;
  const create = context.plan.collection(collection).create;
  const known = new Map<string, KnownId>();
  for (const resource of context.state.created.get(collection) ?? [])
    if (resource.id !== undefined)
      known.set(idKey(resource.id), {
        id: resource.id,
        created: true,
        parents: create ? parentsInScope(resource.scope, create.operation.path) : {},
      });
  for (const id of context.state.pool.ids(collection))
    if (!known.has(idKey(id))) known.set(idKey(id), { id, created: false });
  return known;
}

function reused(
  check: string,
  fresh: readonly CreatedId[],
  known: Map<string, KnownId>,
  idProperty: string,
  scoped: boolean,
): CheckFailure[] {
  const keys = fresh.map((resource) => idKey(resource.id));
  const again = fresh.filter((_, index) => known.has(keys[index]!) || keys.indexOf(keys[index]!) !== index);
  if (again.length === 0) return [];
  return [
    // Under a parent (`/sites/{site_id}/hooks`) ids may be numbered per parent, and kennel does not
    // know which parent an id it saw was under: a reuse there is only a warning.
    failure(
      check,
      scoped ? 'warning' : 'error',
      again[0]!.exchange,
      `${again.length} new resource(s) got an ${idProperty} already given`,
      {
        expected: `${fresh.length} new ${idProperty}s, none given before`,
        actual: `given again: ${again
          .slice(0, 5)
          .map((resource) => show(resource.id))
          .join(', ')}`,
      },
    ),
  ];
}

/** Whether a read answered with the resource itself. */
function readsAsItself(known: KnownId, exchange: Exchange, idProperty: string): boolean {
  return isSuccess(exchange) && idKey(idOf(jsonBody(exchange), idProperty)) === idKey(known.id);
}

/** Known ids that no longer read back as themselves after the creates: gone, or answering as another. */
function lost(check: string, reads: readonly KnownRead[], idProperty: string, mayBeDeleted: boolean): CheckFailure[] {
  const gone = reads.filter(({ known, exchange }) => !readsAsItself(known, exchange, idProperty));
  return [true, false].flatMap((created) => {
    const mine = gone.filter(({ known }) => known.created === created);
    if (mine.length === 0) return [];
    const { known, exchange } = mine[0]!;
    const whose = created ? 'created by this run' : 'seen in a list';
    const severity = !created && mayBeDeleted ? 'warning' : 'error';
    return [
      failure(
        check,
        severity,
        exchange,
        `${mine.length} resource(s) ${whose} can no longer be read after ${MORE_CREATES} more creates`,
        {
          expected: `${idProperty} ${show(known.id)} still readable as itself`,
          actual: `${statusText(exchange)}${isSuccess(exchange) ? ` with ${idProperty} ${show(idOf(jsonBody(exchange), idProperty))}` : ''}`,
        },
      ),
    ];
  });
}

/**
 * Resources this run created that were already unreadable before this check's creates: the
 * document may have other ways to remove them (a reset, a replace), so this only warns.
 */
function goneBefore(check: string, reads: readonly KnownRead[], idProperty: string): CheckFailure[] {
  const gone = reads.filter(({ known, exchange }) => known.created && !readsAsItself(known, exchange, idProperty));
  if (gone.length === 0) return [];
  const { known, exchange } = gone[0]!;
  return [
    failure(check, 'warning', exchange, `${gone.length} resource(s) created earlier in the run can no longer be read`, {
      expected: `${idProperty} ${show(known.id)} readable (unless another operation removed it)`,
      actual: statusText(exchange),
    }),
  ];
}

interface KnownRead {
  known: KnownId;
  exchange: Exchange;
}

function readAll(context: CheckContext, known: readonly KnownId[], when: string): Promise<KnownRead[]> {
  const { operation } = context;
  const idProperty = operation.idProperty!;
  return Promise.all(
    known.map(async (entry) => ({
      known: entry,
      exchange: await readById(context, operation, entry.id, `reading ${idProperty} ${show(entry.id)} ${when}`, {
        parents: entry.parents,
      }),
    })),
  );
}

/**
 * Every id the run created or saw stays readable after many more creates, and no new resource gets
 * an id that was already given: a store that evicts, wraps its counter or recycles ids shows here.
 */
export const idPermanence: ScenarioCheck = {
  name: 'id-permanence',
  kind: 'scenario',
  severity: 'error',
  description: 'ids stay readable after many more creates and are never given twice',
  skipReason(operation, plan, settings) {
    if (operation.role !== 'read' || !operation.collection || !operation.idProperty)
      return 'not an operation that reads one resource by id';
    if (!plan.collection(operation.collection).create?.body) return 'nothing creates resources in this collection';
    return settings.readOnly ? 'read-only run' : undefined;
  },
  async run(context) {
    const { operation, plan } = context;
    const idProperty = operation.idProperty!;
    const known = knownIds(context);
    if (known.size === 0)
      return { failures: [], unexercised: `no ${idProperty} is known: no list or create of the run returned one` };
    // Taken stock first: only what was readable just before the creates must stay readable after them.
    const before = await readAll(context, [...known.values()].slice(0, MOST_READS), 'before more creates');
    const readable = before.filter(({ known: entry, exchange }) => readsAsItself(entry, exchange, idProperty));
    const { created: fresh, exchanges: creates } = await createResources(
      context,
      plan.collection(operation.collection!).create!,
      MORE_CREATES,
    );
    const after = await readAll(
      context,
      readable.map(({ known: entry }) => entry),
      `after ${MORE_CREATES} more creates`,
    );
    // Where the document lets clients delete, someone else may have deleted what this run only saw.
    const mayBeDeleted = plan.document.operations.some(
      (candidate) => candidate.method === 'delete' && candidate.path === operation.operation.path,
    );
    return {
      failures: [
        ...reused(this.name, fresh, known, idProperty, (operation.resource?.parentParameters.length ?? 0) > 0),
        ...lost(this.name, after, idProperty, mayBeDeleted),
        ...goneBefore(this.name, before, idProperty),
      ],
      unexercised:
        readable.length === 0 && fresh.length === 0
          ? `no known ${idProperty} read as itself (${tallyOf(before.map((entry) => entry.exchange))}) and ${noSuccessReason(creates, 'create')}`
          : undefined,
    };
  },
};
