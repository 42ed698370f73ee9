import { describe, expect, it } from 'vitest';
import { contentType, pageCsp, pageHeaders, staticFiles } from '../../src/web/static-assets.js';

describe('static assets of the pages', () => {
  it('reads a file once, types it by extension, and tags it by content', async () => {
    const files = staticFiles('web/reference');
    const first = files('reference.css');
    expect(files('reference.css')).toBe(first);
    const css = await first;
    const icon = await files('favicon.svg');
    expect(css.type).toBe('text/css; charset=utf-8');
    expect(icon.type).toBe('image/svg+xml');
    expect(css.body.length).toBeGreaterThan(0);
    expect(css.etag).toMatch(/^"[\w-]{22}"$/);
    expect(icon.etag).not.toBe(css.etag);
    expect((await staticFiles('web/reference')('reference.css')).etag).toBe(css.etag);
  });

  it('forgets a failed read, so the next request tries again', async () => {
    const files = staticFiles('web/reference');
    const missing = files('absent.css');
    await expect(missing).rejects.toMatchObject({ code: 'ENOENT' });
    expect(files('absent.css')).not.toBe(missing);
    await expect(files('absent.css')).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('refuses a kind of file it has no content type for', () => {
    expect(() => contentType('notes.txt')).toThrow(/notes\.txt/);
    expect(contentType('app.js')).toBe('text/javascript; charset=utf-8');
  });

  it('allows only the own origin, widening images only when asked', () => {
    expect(pageCsp()).toContain("img-src 'self';");
    expect(pageCsp(['data:'])).toContain("img-src 'self' data:;");
    expect(pageCsp()).toContain("frame-ancestors 'none'");
    expect(pageHeaders('x')).toEqual({
      'content-security-policy': 'x',
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
      'cache-control': 'no-cache',
    });
  });
});
