import { describe, expect, it } from 'vitest';
import { Redactor } from '../../src/core/redact.js';
import { BODY_PREVIEW, Journal, type JournalRecord } from '../../src/mock/admin/journal.js';

const record = (url: string, extra: Partial<JournalRecord> = {}): JournalRecord => ({
  time: 0,
  method: 'GET',
  url,
  operationId: undefined,
  status: 200,
  durationMs: 1,
  requestHeaders: {},
  requestBody: '',
  responseHeaders: [],
  responseBody: '',
  ...extra,
});

const MB = 1024 * 1024;

describe('Journal', () => {
  it('keeps the last N, oldest first, with increasing ids', () => {
    const journal = new Journal({ entries: 2, bytes: MB });
    for (const url of ['/a', '/b', '/c']) journal.record(record(url));
    expect(journal.recent().map((entry) => [entry.id, entry.url])).toEqual([
      [2, '/b'],
      [3, '/c'],
    ]);
    expect(journal.recent(1).map((entry) => entry.url)).toEqual(['/c']);
  });

  it('redacts credentials and truncates long bodies', () => {
    const journal = new Journal({ entries: 1, bytes: MB }, new Redactor({ secrets: [] }));
    journal.record(
      record('/a', {
        requestHeaders: { authorization: 'Bearer supersecretkey', cookie: 's=SECRET; x=other' },
        responseBody: 'x'.repeat(10_000),
      }),
    );
    const [entry] = journal.recent();
    expect(entry!.request.headers).toEqual({
      authorization: 'Bearer [redacted]',
      cookie: 's=[redacted]; x=[redacted]',
    });
    expect(entry!.response.body.length).toBeLessThan(BODY_PREVIEW + 100);
    expect(entry!.response.body).toContain('10000 characters');
  });

  it('records nothing with capacity 0', () => {
    const journal = new Journal({ entries: 0, bytes: MB });
    journal.record(record('/a'));
    expect(journal.recent()).toEqual([]);
  });

  it('stays within its byte bound whatever the body sizes, dropping the oldest first', () => {
    const journal = new Journal({ entries: 10_000, bytes: MB });
    const huge = 'p'.repeat(2 * MB);
    for (let index = 0; index < 1000; index += 1) {
      journal.record(record(`/big/${index}`, { requestBody: huge, responseBody: huge }));
    }
    expect(journal.bytes).toBeLessThanOrEqual(MB);
    const kept = journal.recent();
    expect(kept.length).toBeGreaterThan(10);
    expect(kept.length).toBe(journal.size);
    expect(kept.at(-1)!.url).toBe('/big/999');
    expect(kept[0]!.url).toBe(`/big/${1000 - kept.length}`);
    expect(kept.every((entry) => entry.response.body.length < BODY_PREVIEW + 100)).toBe(true);
  });

  it('keeps a clipped body as a copy, not a view of the whole body', () => {
    const journal = new Journal({ entries: 1, bytes: MB });
    const body = `${'é'.repeat(BODY_PREVIEW)}tail`;
    journal.record(record('/a', { responseBody: body }));
    const shown = journal.recent()[0]!.response.body;
    expect(shown.startsWith('é'.repeat(BODY_PREVIEW))).toBe(true);
    expect(shown).not.toContain('tail');
  });

  it('skips an entry larger than the whole bound, keeping the others', () => {
    const journal = new Journal({ entries: 10, bytes: 4096 });
    journal.record(record('/small'));
    journal.record(record('/large', { requestHeaders: { 'x-big': 'h'.repeat(8000) } }));
    expect(journal.recent().map((entry) => entry.url)).toEqual(['/small']);
  });

  it('clear() forgets the entries and their bytes; ids keep counting', () => {
    const journal = new Journal({ entries: 5, bytes: MB });
    journal.record(record('/a', { responseBody: 'x'.repeat(1000) }));
    journal.clear();
    expect([journal.size, journal.bytes]).toEqual([0, 0]);
    journal.record(record('/b'));
    expect(journal.recent().map((entry) => [entry.id, entry.url])).toEqual([[2, '/b']]);
  });

  it('shows configured secrets by label wherever they are', () => {
    const redactor = new Redactor({ secrets: [{ value: 'tenant-key-one', label: '[api key 1]' }] });
    const journal = new Journal({ entries: 1, bytes: MB }, redactor);
    journal.record(
      record('/v1/pets?api_key=tenant-key-one&limit=2', {
        requestHeaders: { authorization: 'Bearer tenant-key-one', 'x-trace': 'tenant-key-one' },
        requestBody: '{"name":"tenant-key-one"}',
        responseBody: '{"message":"TENANT-KEY-ONE"}',
      }),
    );
    const text = JSON.stringify(journal.recent());
    expect(text.toLowerCase()).not.toContain('tenant-key-one');
    expect(journal.recent()[0]!.url).toBe('/v1/pets?api_key=[api key 1]&limit=2');
    expect(journal.recent()[0]!.request.headers).toEqual({
      authorization: 'Bearer [api key 1]',
      'x-trace': '[api key 1]',
    });
  });
});

describe('Journal keeps copies', () => {
  it('shows an exchange as it was recorded, whatever happens to the objects it came from', () => {
    const journal = new Journal({ entries: 2, bytes: MB });
    const requestHeaders: Record<string, string> = { 'x-step': 'recorded' };
    const responseHeaders = ['content-type', 'application/json'];
    journal.record(record('/a', { requestHeaders, responseHeaders, chaos: { cause: 'chaos', delayMs: 5 } }));
    requestHeaders['x-step'] = 'changed later';
    responseHeaders[1] = 'text/plain';
    const [entry] = journal.recent();
    expect(entry!.request.headers).toEqual({ 'x-step': 'recorded' });
    expect(entry!.response.headers).toEqual({ 'content-type': 'application/json' });
    expect(entry!.chaos).toEqual({ cause: 'chaos', delayMs: 5 });
  });
});
