import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMock, type RunningMock } from '../../src/serve/server.js';
import { SchemaValidators } from '../../src/openapi/validators.js';

const fixture = (name: string) => fileURLToPath(new URL(`../fixtures/mock-documents/${name}`, import.meta.url));

interface Answer {
  status: number;
  type: string | null;
  body: any;
}

async function call(url: string, init: RequestInit = {}): Promise<Answer> {
  const response = await fetch(url, init);
  const text = await response.text();
  return { status: response.status, type: response.headers.get('content-type'), body: text && JSON.parse(text) };
}

const json = (body: string): RequestInit => ({
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body,
});

function expectValid(mock: RunningMock, pointer: string, body: unknown): void {
  expect(new SchemaValidators(mock.document.document).at(pointer)(body)).toEqual([]);
}

describe('errors in the document’s own words', () => {
  const mocks: RunningMock[] = [];
  const serve = async (name: string) => {
    const mock = await startMock({ specPath: fixture(name), world: false });
    mocks.push(mock);
    return mock;
  };
  let problem: RunningMock;
  let custom: RunningMock;
  let widgets: RunningMock;
  beforeAll(async () => {
    [problem, custom, widgets] = await Promise.all([
      serve('problem-json.yaml'),
      serve('custom-error.yaml'),
      serve('validation-422.yaml'),
    ]);
  });
  afterAll(() => Promise.all(mocks.map((mock) => mock.close())));

  it('a validation failure documented as problem+json is an RFC 9457 body', async () => {
    const answer = await call(`${problem.url}/things`, json('{"name":7}'));
    expect(answer.status).toBe(400);
    expect(answer.type).toBe('application/problem+json');
    expect(answer.body).toEqual({
      type: 'about:blank',
      title: 'Bad Request',
      status: 400,
      detail: expect.stringContaining('/name must be string'),
      instance: '/p/things',
    });
    expectValid(problem, '#/components/schemas/Problem', answer.body);
  });

  it('malformed JSON, too: every refusal of a matched operation uses the documented problem', async () => {
    const answer = await call(`${problem.url}/things`, json('{"name":'));
    expect(answer).toMatchObject({ status: 400, type: 'application/problem+json' });
    expect(answer.body.detail).toMatch(/not valid JSON/);
  });

  it('a 4XX range answers a bad path parameter (404) with its problem body', async () => {
    const answer = await call(`${problem.url}/things/abc`);
    expect(answer.status).toBe(404);
    expect(answer.type).toBe('application/problem+json');
    expect(answer.body).toMatchObject({ title: 'Not Found', status: 404, instance: '/p/things/abc' });
    expectValid(problem, '#/components/schemas/Problem', answer.body);
  });

  it('the document’s own error object: integer code, the message in `message` (under default)', async () => {
    const answer = await call(`${custom.url}/notes/abc`);
    expect(answer.status).toBe(404);
    expect(answer.type).toBe('application/json; charset=utf-8');
    expect(answer.body).toEqual({ code: 404, message: expect.stringContaining('"noteId" must be integer') });
    const bad = await call(`${custom.url}/notes/1?verbose=maybe`);
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ code: 400, message: expect.stringContaining('"verbose" must be boolean') });
    expectValid(custom, '#/components/schemas/ApiError', bad.body);
  });

  it('validation failures answer 422 where the document documents 422 and not 400', async () => {
    const answer = await call(`${widgets.url}/widgets`, json('{"size":0}'));
    expect(answer.status).toBe(422);
    expect(answer.body).toEqual({
      error: 'Unprocessable Entity',
      detail: expect.stringContaining('/size must be >= 1'),
    });
    const malformed = await call(`${widgets.url}/widgets`, json('{'));
    expect(malformed.status).toBe(422);
  });

  it('a forced error status (Prefer: code=400) answers in the documented error words too', async () => {
    const answer = await call(`${problem.url}/things`, {
      ...json('{"name":"x"}'),
      headers: { 'content-type': 'application/json', prefer: 'code=400' },
    });
    expect(answer).toMatchObject({ status: 400, type: 'application/problem+json' });
    expect(answer.body).toMatchObject({
      type: 'about:blank',
      title: 'Bad Request',
      status: 400,
      detail: 'Response forced by Prefer: code=400',
    });
    expectValid(problem, '#/components/schemas/Problem', answer.body);
  });

  it('a bad path parameter is the documented 400 where the operation documents 400 and no 404', async () => {
    const board = await serve('bad-path-400.yaml');
    const answer = await call(`${board.url}/board/9`);
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({
      code: 'invalid_parameter',
      message: 'Invalid request: path parameter "row" must be <= 3 (got "9")',
      status: 400,
    });
    expect((await call(`${board.url}/board/2`)).status).toBe(200);
  });

  it('outside any operation (an unknown path) kennel’s own Error remains', async () => {
    const answer = await call(`${problem.url}/nowhere`);
    expect(answer.status).toBe(404);
    expect(answer.type).toBe('application/json; charset=utf-8');
    expect(answer.body).toMatchObject({ code: 'not_found', status: 404 });
  });
});
