import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMock, type RunningMock } from '../../src/serve/server.js';

const MEDIA = fileURLToPath(new URL('../fixtures/mock-documents/media-types.yaml', import.meta.url));
let mock: RunningMock;
beforeAll(async () => {
  mock = await startMock({ specPath: MEDIA, world: false });
});
afterAll(() => mock.close());

async function call(method: string, path: string, headers: Record<string, string> = {}) {
  const response = await fetch(mock.url + path, { method, headers, redirect: 'manual' });
  return {
    status: response.status,
    type: response.headers.get('content-type'),
    length: response.headers.get('content-length'),
    headers: response.headers,
    text: await response.text(),
  };
}

describe('the documented media types, negotiated by Accept', () => {
  it.each([
    [undefined, 'application/json; charset=utf-8', '{"id":1,"title":"Sales"}'],
    ['application/xml', 'application/xml; charset=utf-8', '<report><id>1</id><title>Sales</title></report>'],
    ['text/plain', 'text/plain; charset=utf-8', 'report 1: Sales'],
    ['text/*', 'text/plain; charset=utf-8', 'report 1: Sales'],
    [
      'text/html;q=0.9, application/xml;q=0.5',
      'application/xml; charset=utf-8',
      '<report><id>1</id><title>Sales</title></report>',
    ],
    ['application/xml;q=0, */*;q=0.1', 'application/json; charset=utf-8', '{"id":1,"title":"Sales"}'],
    ['APPLICATION/XML', 'application/xml; charset=utf-8', '<report><id>1</id><title>Sales</title></report>'],
  ])('Accept: %s → %s', async (accept, type, text) => {
    const answer = await call('GET', '/reports/1', accept ? { accept } : {});
    expect(answer).toMatchObject({ status: 200, type, text });
  });

  it('406 naming the documented media types when Accept takes none of them', async () => {
    const answer = await call('GET', '/reports/1', { accept: 'image/png, application/xml;q=0' });
    expect(answer.status).toBe(406);
    expect(JSON.parse(answer.text)).toMatchObject({
      code: 'not_acceptable',
      message: expect.stringContaining('answers application/json, application/xml, text/plain'),
    });
  });

  it('a response forced by Prefer is negotiated too', async () => {
    const answer = await call('GET', '/reports/1', { accept: 'text/plain', prefer: 'code=200' });
    expect(answer).toMatchObject({ status: 200, type: 'text/plain; charset=utf-8', text: 'report 1: Sales' });
    const ping = await call('PUT', '/ping', { prefer: 'code=200' });
    expect(ping).toMatchObject({ status: 200, type: null, text: '' });
  });

  it('XML without an example is built from the schema, named by its xml.name', async () => {
    const answer = await call('GET', '/reports/1/summary');
    expect(answer.type).toBe('application/xml; charset=utf-8');
    expect(answer.text).toMatch(/^<report><id>\d+<\/id><title>[^<]*<\/title><\/report>$/);
  });

  it('a text/plain example is sent as text, not as a JSON string', async () => {
    const answer = await call('GET', '/notes');
    expect(answer).toMatchObject({ status: 200, type: 'text/plain; charset=utf-8', text: 'hello, world' });
  });
});

describe('no body where none is documented', () => {
  it('a 200 documented without content has no body and no Content-Type (not "OK")', async () => {
    const answer = await call('PUT', '/ping');
    expect(answer).toMatchObject({ status: 200, type: null, text: '' });
  });

  it('a 204 stays empty', async () => {
    expect(await call('DELETE', '/things/1')).toMatchObject({ status: 204, type: null, text: '' });
  });

  it('an error whose documented status has no content: no body, the reason in Kennel-Problem', async () => {
    const answer = await call('DELETE', '/things/abc');
    expect(answer).toMatchObject({ status: 404, type: null, text: '' });
    expect(answer.headers.get('kennel-problem')).toMatch(/"thingId" must be integer/);
  });
});

describe('operations without a documented 2xx answer with what they document, not 501', () => {
  it('only `default`: its example, as 200', async () => {
    expect(await call('GET', '/legacy')).toMatchObject({ status: 200, text: '{"ok":true}' });
  });

  it('only a 301: the 301', async () => {
    const answer = await call('GET', '/old-home');
    expect(answer).toMatchObject({ status: 301, type: null, text: '' });
    expect(answer.headers.get('location')).toBe('/home');
  });

  it('only a 418: the 418 with its example', async () => {
    expect(await call('GET', '/teapot')).toMatchObject({ status: 418, text: '{"short":true}' });
  });
});
