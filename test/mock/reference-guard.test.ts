// The mock checks what a body names (fixtures/explore/library.yaml): a book whose `shelf_id` names
// no shelf gets the 422 the document gives createBook, one naming a kept shelf is created; a
// loan's `book_id` is taken as sent, the document giving createLoan no status for it.
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMock, type RunningMock } from '../../src/serve/server.js';

const LIBRARY = fileURLToPath(new URL('../fixtures/explore/library.yaml', import.meta.url));
const TOKEN = 'library-token';

let mock: RunningMock;
beforeAll(async () => {
  mock = await startMock({ specPath: LIBRARY, apiKeys: [TOKEN] });
});
afterAll(() => mock.close());

const send = (method: string, path: string, body?: unknown) =>
  fetch(`${mock.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });

describe('references in request bodies', () => {
  it('refuses a book on a shelf that does not exist with the documented 422', async () => {
    const shelf = randomUUID();
    const response = await send('POST', '/books', { title: 'Dune', shelf_id: shelf });
    expect(response.status).toBe(422);
    expect(response.headers.get('content-type')).toContain('application/problem+json');
    expect(((await response.json()) as { detail: string }).detail).toContain(shelf);
  });

  it('creates a book on a shelf it keeps, seeded or created', async () => {
    const listed = (await (await send('GET', '/shelves')).json()) as { data: { id: string }[] };
    expect((await send('POST', '/books', { title: 'Dune', shelf_id: listed.data[0]!.id })).status).toBe(201);
    const made = (await (await send('POST', '/shelves', { name: 'New arrivals' })).json()) as { id: string };
    expect((await send('POST', '/books', { title: 'Emma', shelf_id: made.id })).status).toBe(201);
  });

  it('takes a reference as sent where the document gives no status for one that names nothing', async () => {
    const response = await send('POST', '/loans', { book_id: randomUUID(), borrower: 'Ada' });
    expect(response.status).toBe(201);
  });

  it('still answers an invalid body 400 before looking at what it names', async () => {
    expect((await send('POST', '/books', { shelf_id: randomUUID() })).status).toBe(400);
  });
});
