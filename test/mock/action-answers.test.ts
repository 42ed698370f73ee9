import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectConforms, startTestMock, type TestMock } from '../helpers/mock-client.js';

const fixture = (name: string) => fileURLToPath(new URL(`../fixtures/agreement/${name}`, import.meta.url));

describe('a create kennel keeps nothing of echoes what its answer declares (POST …/captures)', () => {
  let mock: TestMock;
  beforeAll(async () => {
    mock = await startTestMock({ specPath: fixture('action-answer-example.yaml') });
  });
  afterAll(() => mock.close());

  const sent = { merchantAccount: 'ACME_SHOP', amount: { currency: 'NOK', value: 7 } };

  it('answers the values sent where the response declares them, the example elsewhere', async () => {
    const answer = await mock.request('POST', '/payments/p1/captures', { body: sent });
    expect(answer.status).toBe(201);
    expect(answer.body).toEqual({ ...sent, status: 'received' });
    expectConforms(mock, 'capturePayment', answer);
  });

  it('keeps the example where a value sent does not fit the answer (a status outside its enum)', async () => {
    const answer = await mock.request('POST', '/payments/p1/captures', { body: { ...sent, status: 'pending' } });
    expect(answer.body).toEqual({ ...sent, status: 'received' });
  });

  it("copies nothing that breaks the answer's schema, even where the example breaks it too", async () => {
    const answer = await mock.request('POST', '/payments/p1/reversals', { body: { reference: 'mine' } });
    expect(answer.status).toBe(201);
    expect(answer.body).toEqual({ reference: 'short' });
  });

  it('answers the named example as written when Prefer asks for it', async () => {
    const named = await mock.request('POST', '/payments/p1/captures', {
      body: sent,
      headers: { prefer: 'example=received' },
    });
    expect(named.status).toBe(201);
    expect(named.body).toEqual({
      merchantAccount: 'YOUR_MERCHANT_ACCOUNT',
      amount: { currency: 'EUR', value: 2500 },
      status: 'received',
    });
  });
});

describe('an action on one item answers the item acted on (POST /emails/{id}/cancel)', () => {
  let mock: TestMock;
  beforeAll(async () => {
    mock = await startTestMock({ specPath: fixture('item-action-answers-item.yaml') });
  });
  afterAll(() => mock.close());

  it('answers the stored email, not the example naming another one', async () => {
    const created = await mock.request('POST', '/emails', { body: { subject: 'Quarterly figures' } });
    expect(created.status).toBe(201);
    const cancelled = await mock.request('POST', `/emails/${created.body.id}/cancel`);
    expect(cancelled.status).toBe(200);
    expect(cancelled.body).toEqual(created.body);
    expectConforms(mock, 'cancelEmail', cancelled);
  });

  it('answers from the document for an email that does not exist (the document gives no 404)', async () => {
    const answer = await mock.request('POST', '/emails/no-such-email/cancel');
    expect(answer.status).toBe(200);
    expect(answer.body.id).toBe('4ef9a417-02e9-4d39-ad75-9611e0fcc33c');
  });
});
