import type { LoadedDocument } from '../openapi/load.js';
import { jsonMediaType, type Operation } from '../openapi/operations.js';
import type { Resource, ResourceModel } from '../openapi/resource-model.js';
import { SchemaValidators, type Validator } from '../openapi/validators.js';
import type { ResourceStore } from '../store/resource-store.js';

/** What a reload did with the items of the store it replaced. */
export interface CarryOver {
  kept: number;
  dropped: number;
}

/** The schema pointer of a 2xx JSON response, else undefined. */
function successPointer(operation: Operation | undefined): string | undefined {
  const response = operation?.responses.find((candidate) => /^2\d\d$/.test(candidate.status));
  return response && jsonMediaType(response.content)?.schema?.pointer;
}

/** Where one item's schema is in the document: the read response, else the create response, else the create body. */
function itemPointer(resource: Resource): string | undefined {
  const { read, create } = resource.operations;
  const body = create?.requestBody && jsonMediaType(create.requestBody.content)?.schema?.pointer;
  return successPointer(read) ?? successPointer(create) ?? body;
}

/**
 * A check per collection path of the new document whose items the old store's can become (same
 * key property and kind); a path without one cannot keep them.
 */
export function itemChecks(document: LoadedDocument, model: ResourceModel, old: ResourceStore): Map<string, Validator> {
  const validators = new SchemaValidators(document.document);
  const checks = new Map<string, Validator>();
  for (const resource of model.resources) {
    if (!resource.stateful || !resource.key) continue;
    let oldKey;
    try {
      oldKey = old.spec(resource.path).key;
    } catch {
      continue; // A collection the old document did not have: it starts seeded.
    }
    // Items are found by their key: a new key property or kind would make them unreachable.
    if (oldKey.property !== resource.key.property || oldKey.kind !== resource.key.kind) continue;
    const pointer = itemPointer(resource);
    checks.set(resource.path, pointer ? validators.at(pointer) : () => []);
  }
  return checks;
}

/**
 * Moves every tenant's items from `old` into `next` (a fresh store for the reloaded document):
 * an item stays when its collection still exists with the same key and it still validates
 * against the new item schema; any other item is dropped. A collection none of whose items
 * changed stays as it was, seeded items included; the seed carries over too.
 */
export function carryOver(old: ResourceStore, next: ResourceStore, checks: ReadonlyMap<string, Validator>): CarryOver {
  next.reset({ seed: old.seed });
  const result: CarryOver = { kept: 0, dropped: 0 };
  for (const [name, tenant] of old.tenants()) {
    for (const items of tenant.collections()) {
      const check = checks.get(items.path);
      const records = check ? items.records.filter((record) => check(record.value).length === 0) : [];
      result.kept += records.length;
      result.dropped += items.records.length - records.length;
      if (check) next.tenant(name).restoreCollection({ ...items, records });
    }
  }
  return result;
}
