import { describe, expect, it } from 'vitest';
import { Journal, type JournalRecord } from '../../src/mock/journal.js';

const record = (url: string, extra: Partial<JournalRecord> = {}): JournalRecord => ({
  time: 0,
  method: 'GET',
  url,
  operationId: undefined,
  status: 200,
  durationMs: 1,
  requestHeaders: {},
  requestBody: '',
  responseHeaders: {},
  responseBody: '',
  ...extra,
});

describe('Journal', () => {
  it('keeps the last N, oldest first, with increasing ids', () => {
    const journal = new Journal(2);
    for (const url of ['/a', '/b', '/c']) journal.record(record(url));
    expect(journal.recent().map((entry) => [entry.id, entry.url])).toEqual([
      [2, '/b'],
      [3, '/c'],
    ]);
    expect(journal.recent(1).map((entry) => entry.url)).toEqual(['/c']);
  });

  it('redacts credentials and truncates long bodies', () => {
    const journal = new Journal(1);
    journal.record(
      record('/a', {
        requestHeaders: { authorization: 'Bearer supersecretkey', cookie: 'session=abcdefghijk' },
        responseBody: 'x'.repeat(10_000),
      }),
    );
    const [entry] = journal.recent();
    expect(entry!.request.headers).toEqual({ authorization: 'Bearer supe…', cookie: 'sess…' });
    expect(entry!.response.body.length).toBeLessThan(8300);
    expect(entry!.response.body).toContain('10000 characters');
  });

  it('records nothing with capacity 0', () => {
    const journal = new Journal(0);
    journal.record(record('/a'));
    expect(journal.recent()).toEqual([]);
  });
});
