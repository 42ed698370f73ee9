import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMock, type RunningMock } from '../../src/serve/server.js';

const FIXTURE = fileURLToPath(new URL('../fixtures/mock-documents/cookie-parameters.yaml', import.meta.url));

let mock: RunningMock;
beforeAll(async () => {
  mock = await startMock({ specPath: FIXTURE, world: false });
});
afterAll(() => mock.close());

const status = async (cookie?: string) =>
  (await fetch(`${mock.url}/session`, { headers: cookie === undefined ? {} : { cookie } })).status;

describe('cookie parameters are read from the Cookie header and checked like any parameter', () => {
  it('a request with its required cookie is answered', async () => {
    expect(await status('session_id=abcdefgh12')).toBe(200);
    expect(await status('other=1; session_id=abcdefgh12; theme=dark')).toBe(200);
  });

  it.each([
    [undefined, 'no Cookie header'],
    ['theme=dark', 'the required cookie missing'],
    ['session_id=short', 'below its minLength'],
    ['session_id=abcdefgh12; theme=blue', 'an optional cookie outside its enum'],
  ])('%s (%s) is refused with 400', async (cookie: string | undefined, _why: string) => {
    expect(await status(cookie)).toBe(400);
  });
});
