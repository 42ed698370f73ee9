import { createServer } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { sharedChromium, strictContext } from '../helpers/browser.js';
import { listenOnLoopback, type LoopbackServer } from '../helpers/loopback.js';

describe('headless Chromium for the page tests', () => {
  let browser: Browser;
  let server: LoopbackServer;
  beforeAll(async () => {
    browser = await sharedChromium();
    server = await listenOnLoopback(
      createServer((_request, response) => {
        response.writeHead(200, { 'content-type': 'text/html' });
        response.end('<!doctype html><title>t</title><p id="p"></p><script>p.textContent = 6 * 7</script>');
      }),
    );
  });
  afterAll(async () => {
    await server?.close();
  });

  it('runs a page script over loopback HTTP', async () => {
    const { context, errors } = await strictContext(browser);
    const page = await context.newPage();
    await page.goto(server.url);
    expect(await page.textContent('#p')).toBe('42');
    expect(errors).toEqual([]);
    await context.close();
  });
});
