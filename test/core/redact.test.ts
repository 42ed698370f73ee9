import { describe, expect, it } from 'vitest';
import { isCredentialHeader, Redactor } from '../../src/core/redact.js';

const KEY = 'Secret-Key-123';
const redactor = new Redactor({
  secrets: [
    { value: KEY, label: '[api key 1]' },
    { value: 'adm1n"t/ken', label: '[admin token]' },
    { value: 'abc', label: '[short]' },
  ],
  headers: ['x-petstore-key'],
  queryParameters: ['petKey'],
});

describe('Redactor.text', () => {
  it.each([
    [`key ${KEY} here`, 'key [api key 1] here'],
    [`upper ${KEY.toUpperCase()}`, 'upper [api key 1]'],
    [`near miss ${KEY}x`, 'near miss [api key 1]x'],
    [`prefix ${KEY.slice(0, -1)}!`, 'prefix [api key 1]!'],
    ['url-encoded adm1n%22t%2Fken', 'url-encoded [admin token]'],
    ['json-escaped "adm1n\\"t/ken"', 'json-escaped "[admin token]"'],
    ['a short secret abc is left alone', 'a short secret abc is left alone'],
    ['nothing to hide', 'nothing to hide'],
  ])('%s', (text, expected) => {
    expect(redactor.text(text)).toBe(expected);
  });

  it('is stable across calls (no regex state leaks between them)', () => {
    for (let index = 0; index < 3; index += 1) expect(redactor.text(KEY)).toBe('[api key 1]');
  });
});

describe('Redactor.url', () => {
  it.each([
    ['/v1/pets?api_key=unknown&limit=2', '/v1/pets?api_key=[redacted]&limit=2'],
    ['/v1/pets?ACCESS_TOKEN=zzz', '/v1/pets?ACCESS_TOKEN=[redacted]'],
    ['/v1/pets?petkey=zzz', '/v1/pets?petkey=[redacted]'],
    [`/v1/pets?token=${KEY}`, '/v1/pets?token=[api key 1]'],
    [`/v1/pets?q=${KEY}`, '/v1/pets?q=[api key 1]'],
    [`/v1/${encodeURIComponent(KEY)}/x`, '/v1/[api key 1]/x'],
    ['/v1/pets?limit=2&status=sold', '/v1/pets?limit=2&status=sold'],
    ['/v1/pets?%ZZ=1&key', '/v1/pets?%ZZ=1&key'],
  ])('%s', (url, expected) => {
    expect(redactor.url(url)).toBe(expected);
  });
});

describe('Redactor.headers', () => {
  it('hides credential headers, keeping the scheme and cookie names, and secrets in any header', () => {
    expect(
      redactor.headers({
        authorization: `Bearer ${KEY}`,
        'proxy-authorization': 'Basic dXNlcjpwYXNz',
        cookie: 's=SECRET; x=1',
        'set-cookie': ['sid=abc123; Path=/'],
        'x-auth-token': 'tok',
        'x-admin-token': 'adm1n"t/ken',
        'x-petstore-key': 'k',
        'x-session-id': 'sess',
        'x-echo': `said ${KEY}`,
        accept: 'application/json',
        'content-length': undefined,
      }),
    ).toEqual({
      authorization: 'Bearer [api key 1]',
      'proxy-authorization': 'Basic [redacted]',
      cookie: 's=[redacted]; x=[redacted]',
      'set-cookie': ['sid=[redacted]; Path=[redacted]'],
      'x-auth-token': '[redacted]',
      'x-admin-token': '[admin token]',
      'x-petstore-key': '[redacted]',
      'x-session-id': '[redacted]',
      'x-echo': 'said [api key 1]',
      accept: 'application/json',
      'content-length': undefined,
    });
  });

  it('judges a header a credential by its name', () => {
    expect(['X-Idempotency-Key', 'X-Session-Id', 'Passwd', 'X-Authenticated-User'].map(isCredentialHeader)).toEqual([
      true,
      true,
      true,
      true,
    ]);
    expect(['Accept', 'X-Forwarded-For', 'Content-Type', 'Prefer'].map(isCredentialHeader)).toEqual([
      false,
      false,
      false,
      false,
    ]);
  });

  it('does not keep a "scheme" that may be a credential', () => {
    expect(redactor.headers({ authorization: 'k3y/with+chars and more' })).toEqual({ authorization: '[redacted]' });
    expect(redactor.headers({ authorization: KEY })).toEqual({ authorization: '[api key 1]' });
  });

  it('keeps a __proto__ header as an ordinary field', () => {
    const headers = JSON.parse('{"__proto__":["x"],"accept":"a"}') as Record<string, unknown>;
    const out = redactor.headers(headers);
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect(Object.keys(out)).toEqual(['__proto__', 'accept']);
  });
});

describe('Redactor spellings in reports', () => {
  it('finds a secret escaped for XML', () => {
    const xml = new Redactor({ secrets: [{ value: 'a<b>&"c', label: '$KEY' }] });
    expect(xml.text('<x>a&lt;b&gt;&amp;&quot;c</x>')).toBe('<x>$KEY</x>');
  });
});
