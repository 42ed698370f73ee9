// An item parameter may spell its key as the item's noun and the property (`{ownerSlug}` for
// `slug`) or in another case (`{userName}` for `user_name`): the key is that property, and
// kennel serve keeps the collection. Found writing a fixture for the generated documents'
// sub-resources: /owners/{ownerSlug} had no key, so kennel serve answered examples for it.
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { startMock } from '../../src/serve/server.js';
import { loadDocument } from '../../src/openapi/load.js';
import { inferResources } from '../../src/openapi/resource-model.js';

const SPEC = fileURLToPath(new URL('../fixtures/resources/owners-by-slug.yaml', import.meta.url));

describe('a key the item parameter spells', () => {
  it('{ownerSlug} of /owners is keyed by slug, chosen by the client', async () => {
    const model = inferResources(await loadDocument(SPEC));
    const owners = model.resources.find((resource) => resource.path === '/owners')!;
    expect(owners.key).toEqual({ property: 'slug', kind: 'string', assignedBy: 'client' });
    expect(owners.stateful).toBe(true);
  });

  it('kennel serve keeps an owner created with a slug, and reads it by that slug', async () => {
    const mock = await startMock({ specPath: SPEC, port: 0, world: false });
    try {
      const created = await fetch(`${mock.url}/owners`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ slug: 'ada', name: 'Ada' }),
      });
      expect(created.status).toBe(201);
      expect(await (await fetch(`${mock.url}/owners/ada`)).json()).toEqual({ slug: 'ada', name: 'Ada' });
      expect((await fetch(`${mock.url}/owners/nobody`)).status).toBe(404);
    } finally {
      await mock.close();
    }
  });
});
