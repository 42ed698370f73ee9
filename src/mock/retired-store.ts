import { ProblemError } from '../core/problem.js';
import type { Validator } from '../openapi/validators.js';
import type { Collection, CreateDraft, ResetScope, Store, Tenant } from '../store/store-types.js';

/** Which collections of the new document take an old request's items, and the check each item must pass. */
export type SuccessorChecks = ReadonlyMap<string, Validator>;

/**
 * A 409: the API changed under the request (RFC 9110 §15.5.10: a conflict with the resource's
 * current state that the client can resolve by sending it again). Not a 5xx: nothing failed.
 */
function reloaded(what: string): ProblemError {
  return new ProblemError(
    409,
    'document_reloaded',
    `The document was reloaded while this request was under way, and ${what}; nothing was written: send the request again`,
  );
}

/**
 * The store an app's handlers use, which a `--watch` reload can hand on to the next app's store.
 * A request still under way in the old app (held by a delay, its body still arriving) then reads
 * and writes the new store, so what it is told it created is there after the reload, and its id
 * comes from the new store's sequence. A write the new document cannot keep (its collection is
 * gone, or the item no longer fits the schema, as the carry-over decides) is refused with 409:
 * never acknowledged, then dropped.
 */
export class SuccessorStore implements Store {
  #target: Store;
  #checks: SuccessorChecks | undefined;

  constructor(store: Store) {
    this.#target = store;
  }

  /** From now on every request goes to `successor`, its writes checked by `checks`. */
  handOver(successor: Store, checks: SuccessorChecks): void {
    this.#target = successor;
    this.#checks = checks;
  }

  tenant(key: string): Tenant {
    const tenant = this.#target.tenant(key);
    const checks = this.#checks;
    return checks ? handedOverTenant(tenant, checks) : tenant;
  }

  seeded(path: string) {
    return this.#target.seeded(path);
  }

  reset(scope?: ResetScope) {
    return this.#target.reset(scope);
  }

  status() {
    return this.#target.status();
  }

  close(): Promise<void> {
    return this.#target.close();
  }
}

function handedOverTenant(tenant: Tenant, checks: SuccessorChecks): Tenant {
  return {
    collection: (path, parent) => {
      const check = checks.get(path);
      if (!check) throw reloaded(`no longer keeps ${path} with the same key`);
      return checkedCollection(tenant.collection(path, parent), check);
    },
  };
}

function checkedCollection(collection: Collection, check: Validator): Collection {
  const fits = (value: Record<string, unknown>): Record<string, unknown> => {
    if (check(value).length > 0) throw reloaded("the item does not fit the reloaded document's schema");
    return value;
  };
  return {
    list: (limit, filters, order) => collection.list(limit, filters, order),
    get: (key) => collection.get(key),
    create: (draft: CreateDraft) => collection.create({ ...draft, build: (key) => fits(draft.build(key)) }),
    replace: (key, value) => collection.replace(key, fits(value)),
    remove: (key) => collection.remove(key),
  };
}
