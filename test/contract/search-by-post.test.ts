// A search sent as a form: kennel serve and kennel check read POST /animals/search, answered with
// the list GET /animals/search answers, as a search, not a create (test/fixtures/agreement).
import { describe, expect, it } from 'vitest';
import { loadDocument } from '../../src/openapi/load.js';
import { inferResources } from '../../src/openapi/resource-model.js';
import { startMock } from '../../src/serve/server.js';
import { errors, fixture, KEY, serveAndCheck } from './agreement-helpers.js';

describe('a search sent as a form', () => {
  it('a POST answered with the list its path GETs finds items and makes none: nothing it sends is kept', async () => {
    const specPath = fixture('search-by-post.yaml');
    const model = inferResources(await loadDocument(specPath));
    expect(model.resources.flatMap((resource) => Object.keys(resource.operations))).not.toContain('create');
    const mock = await startMock({ specPath, port: 0, apiKeys: [KEY], world: false });
    try {
      const headers = { authorization: `Bearer ${KEY}` };
      const page = async () => (await (await fetch(`${mock.url}/animals/search`, { headers })).json()) as object;
      const before = await page();
      const search = await fetch(`${mock.url}/animals/search`, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/x-www-form-urlencoded' },
        body: 'name=kennel-searched-tiger',
      });
      expect(search.status).toBe(200);
      expect(JSON.stringify(await page())).not.toContain('kennel-searched-tiger');
      expect(await page()).toEqual(before);
    } finally {
      await mock.close();
    }
    expect(errors(await serveAndCheck('search-by-post.yaml'))).toEqual([]);
  });
});
