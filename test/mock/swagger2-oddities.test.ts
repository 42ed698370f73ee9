import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMock, type RunningMock } from '../../src/mock/server.js';

const FIXTURE = fileURLToPath(new URL('../fixtures/mock-documents/swagger2-oddities.yaml', import.meta.url));

let mock: RunningMock;
beforeAll(async () => {
  mock = await startMock({ specPath: FIXTURE, world: false });
});
afterAll(() => mock.close());

const post = (body: string) =>
  fetch(`${mock.url}/path`, { method: 'POST', body, headers: { 'content-type': 'application/x-www-form-urlencoded' } });

describe('Swagger 2.0 oddities survive the conversion', () => {
  it('allowEmptyValue: false on a formData field refuses an empty value; true allows it', async () => {
    expect((await post('id')).status).toBe(400);
    expect((await post('id=')).status).toBe(400);
    const fine = await post('id=7&note=');
    expect(fine.status).toBe(200);
    expect(await fine.json()).toEqual(expect.any(String));
  });

  it('an example keyed by no media type (`error: false`) is left out, with a warning at its line', () => {
    expect(mock.spec.warnings).toContainEqual({
      location: expect.stringMatching(/swagger2-oddities\.yaml:17$/),
      message: expect.stringContaining('"error" is none, so kennel leaves this example out'),
    });
  });
});
