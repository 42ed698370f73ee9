import { describe, expect, it } from 'vitest';
import { endToEndHeaders, rawEndToEndHeaders } from '../../src/proxy/hop-by-hop.js';
import { parseUpstream, targetOf } from '../../src/proxy/upstream.js';
import {
  capViolations,
  MAX_HEADER_CHARS,
  MAX_VIOLATIONS,
  violationsHeader,
  type Violation,
} from '../../src/mock/respond/violation.js';

const violation = (message: string): Violation => ({ location: 'response', rule: 'r', severity: 'error', message });

describe('the Kennel-Violations header', () => {
  it('escapes every character outside printable ASCII, so Node can always write it', () => {
    const header = violationsHeader([violation('catégorie 🐕 must be integer\r\nX-Injected: 1')]);
    expect(header).toMatch(/^[\x20-\x7e]+$/);
    expect(JSON.parse(header)[0].message).toBe('catégorie 🐕 must be integer\r\nX-Injected: 1');
  });

  it('keeps what fits under its bound and says how many more the journal has', () => {
    const many = Array.from({ length: 200 }, (_, index) => violation(`fault ${index} ${'x'.repeat(100)}`));
    const header = violationsHeader(many);
    expect(header.length).toBeLessThanOrEqual(MAX_HEADER_CHARS);
    const parsed = JSON.parse(header) as { message: string }[];
    expect(parsed.at(-1)!.message).toBe(`${200 - (parsed.length - 1)} more in the journal`);
  });

  it('caps the kept list and long messages', () => {
    const kept = capViolations(Array.from({ length: 50 }, () => violation('m'.repeat(5000))));
    expect(kept).toHaveLength(MAX_VIOLATIONS + 1);
    expect(kept[0]!.message.length).toBeLessThan(400);
    expect(kept.at(-1)!.message).toBe('30 more not kept');
  });
});

describe('hop-by-hop headers (RFC 9110 §7.6.1)', () => {
  it('drops the fixed ones and those Connection names, keeps the rest', () => {
    expect(
      endToEndHeaders(
        {
          connection: 'close, X-Trace',
          'x-trace': '1',
          'keep-alive': 'timeout=5',
          te: 'trailers',
          'x-keep': 'k',
          host: 'h',
        },
        ['host'],
      ),
    ).toEqual({ 'x-keep': 'k' });
  });

  it('keeps raw spelling, order and repeated headers', () => {
    expect(
      rawEndToEndHeaders([
        'Set-Cookie',
        'a=1',
        'X-Mixed-Case',
        'v',
        'set-cookie',
        'b=2',
        'Transfer-Encoding',
        'chunked',
      ]),
    ).toEqual({ 'Set-Cookie': ['a=1', 'b=2'], 'X-Mixed-Case': 'v' });
  });
});

describe('the upstream URL', () => {
  it.each([
    ['http://api.test', '/v1/pets?limit=2', 'http://api.test/v1/pets?limit=2'],
    ['https://api.test/base/', '/v1/pets', 'https://api.test/base/v1/pets'],
    ['http://api.test:8080/base', '/', 'http://api.test:8080/base/'],
    // An absolute-form or scheme-relative target never changes the host: kennel is no open proxy.
    ['http://api.test', 'http://evil.test/x', 'http://api.test/http://evil.test/x'],
    ['http://api.test', '//evil.test/x', 'http://api.test//evil.test/x'],
  ])('%s + %s → %s', (upstream, target, expected) => {
    expect(targetOf(parseUpstream(upstream), target).url.href).toBe(expected);
  });

  it.each(['http://api.test/?debug=1', 'http://api.test/#x', 'file:///etc/passwd'])('refuses %s', (url) => {
    expect(() => parseUpstream(url)).toThrow(/--proxy/);
  });
});
