import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMock, type RunningMock } from '../../src/serve/server.js';
import { jsonMediaType, responseFor } from '../../src/openapi/operations.js';
import { SchemaValidators } from '../../src/openapi/validators.js';

const FIXTURE = fileURLToPath(new URL('../fixtures/mock-documents/resource-shapes.yaml', import.meta.url));

let mock: RunningMock;
let validators: SchemaValidators;
beforeAll(async () => {
  mock = await startMock({ specPath: FIXTURE, world: false });
  validators = new SchemaValidators(mock.document.document);
});
afterAll(() => mock.close());

interface Answer {
  status: number;
  location: string | null;
  body: any;
}

async function call(method: string, path: string, body?: unknown): Promise<Answer> {
  const response = await fetch(path.startsWith('http') ? path : `${mock.url}${path}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return {
    status: response.status,
    location: response.headers.get('location'),
    body: text ? JSON.parse(text) : undefined,
  };
}

/** The answer is valid against what the operation documents for its status. */
function expectValid(operationId: string, answer: Answer): void {
  const operation = mock.document.operations.find((candidate) => candidate.operationId === operationId)!;
  const media = jsonMediaType(responseFor(operation, answer.status)!.content)!;
  expect(validators.at(media.schema!.pointer)(answer.body)).toEqual([]);
}

describe('stored items and their keys fit the document', () => {
  it('a server-assigned key fits the item parameter pattern, so Location reads back', async () => {
    const created = await call('POST', '/orders', { amount: 12.5, note: 'two pens' });
    expect(created.status).toBe(201);
    expectValid('createOrder', created);
    expect(created.body.id).toMatch(/^ord_[a-z0-9]{6,10}$/);
    expect(created.location).toBe(`/orders/${created.body.id}`);
    const read = await call('GET', created.location!);
    expect(read.status).toBe(200);
    expect(read.body).toEqual(created.body);
  });

  it('a body value that does not fit the item schema (a number for an Amount) is replaced, the rest kept', async () => {
    const created = await call('POST', '/orders', { amount: 3, note: 'kept' });
    expect(created.body).toMatchObject({
      note: 'kept',
      amount: { value: expect.any(Number), currency: expect.stringMatching(/^[A-Z]{3}$/) },
    });
    expectValid('createOrder', created);
  });

  it('what only the create body declares is kept as sent (a read may show less than a create sends)', async () => {
    const created = await call('POST', '/orders', { amount: 5, coupon: 'SPRING' });
    expect(created.body.coupon).toBe('SPRING');
    expectValid('createOrder', created);
  });

  it('seeded items (an example missing required fields among them) are completed to the item schema', async () => {
    const list = await call('GET', '/orders');
    expect(list.body.length).toBeGreaterThanOrEqual(3);
    expectValid('listOrders', list);
    for (const order of list.body) expect((await call('GET', `/orders/${order.id}`)).status).toBe(200);
  });

  it('a uuid item parameter gets uuid keys although the id property only says string', async () => {
    const opened = await call('POST', '/tickets', { title: 'broken lamp' });
    expect(opened.body.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect((await call('GET', opened.location!)).status).toBe(200);
  });

  it('an optional body left out creates an item with its required fields filled', async () => {
    const opened = await call('POST', '/tickets');
    expect(opened.status).toBe(201);
    expectValid('openTicket', opened);
  });

  it('a write documented to answer a list answers one', async () => {
    const added = await call('POST', '/teams/red/members', { email: 'ada@example.com' });
    expect(added.status).toBe(200);
    expectValid('addMember', added);
    expect(added.body).toEqual([{ id: expect.any(Number), email: 'ada@example.com' }]);
  });
});
