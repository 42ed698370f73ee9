import { describe, expect, it } from 'vitest';
import { idParameter } from '../../src/contract/checks/ids.js';
import type { PlannedOperation } from '../../src/contract/prepare/plan.js';

const operation = (path: string, names: string[]) =>
  ({
    operation: { path },
    parameters: names.map((name) => ({ name, in: 'path' })),
  }) as unknown as PlannedOperation;

describe('the path parameter that names the resource', () => {
  it.each([
    ['/sites/{site_id}/deploys/{deploy_id}', ['deploy_id', 'site_id'], 'deploy_id'],
    ['/sites/{site_id}/deploys/{deploy_id}', ['site_id', 'deploy_id'], 'deploy_id'],
    ['/v1/{name}.json', ['name'], 'name'],
    ['/owners/{ownerId}/pets', ['ownerId'], 'ownerId'],
  ])('%s declared as %j: %s', (path, names, expected) => {
    expect(idParameter(operation(path, names))?.name).toBe(expected);
  });
});
