import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMock, type RunningMock } from '../../src/serve/server.js';

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

  it('allowEmptyValue on a query parameter survives too: false refuses `?q=` and `?q`, true allows `near=`', async () => {
    const search = async (query: string) => (await fetch(`${mock.url}/search${query}`)).status;
    expect(await search('?q=')).toBe(400);
    expect(await search('?q')).toBe(400);
    expect(await search('?q=cat&near=')).toBe(200);
    expect(await search('?near')).toBe(200);
  });

  it('an operation whose only example is keyed by no media type answers a valid generated value', async () => {
    const answer = await fetch(`${mock.url}/search`);
    expect(answer.status).toBe(200);
    expect(await answer.json()).toEqual(expect.arrayContaining([expect.any(String)]));
  });

  it("errors documented only in the operation's own `produces` type are answered in it, as JSON", async () => {
    for (const [query, prefer, status] of [
      ['?tail=all', '', 400],
      ['', 'code=500', 500],
    ] as const) {
      const answer = await fetch(`${mock.url}/logs${query}`, { headers: prefer ? { prefer } : {} });
      expect(answer.status).toBe(status);
      expect(answer.headers.get('content-type')).toBe('application/vnd.example.raw-stream');
      expect(JSON.parse(await answer.text())).toMatchObject({ message: expect.any(String) });
    }
  });

  it('a Swagger 2.0 document without info serves, under a title of its own', async () => {
    const health = await fetch(`${mock.origin}/__kennel/health`);
    expect(health.status).toBe(200);
    expect(((await health.json()) as { spec: unknown }).spec).toEqual({
      title: 'untitled API',
      version: '(no version)',
    });
  });

  it('an example keyed by no media type (`error: false`) is left out, with a warning at its line', () => {
    expect(mock.document.warnings).toContainEqual({
      location: expect.stringMatching(/swagger2-oddities\.yaml:16$/),
      message: expect.stringContaining('"error" is none, so kennel leaves this example out'),
    });
  });
});
