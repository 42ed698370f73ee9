// Issue 18, item 8, in real Chromium: a page on another site tries to reset kennel's store and
// world (a form post, a no-cors fetch, a text/plain form), and a page whose name was re-pointed at
// 127.0.0.1 (DNS rebinding) tries to read the journal and drive the world. None of it may work,
// while kennel's own dashboard, served from the same origin, still can.
import { createServer } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { startMock, type RunningMock } from '../../src/serve/server.js';
import { launchChromium, strictContext } from '../helpers/browser.js';
import { listenOnLoopback, type LoopbackServer } from '../helpers/loopback.js';
import { callWorld } from '../helpers/world-client.js';

const DEV_KEY = { authorization: 'Bearer kennel-dev-key', 'content-type': 'application/json' };

/** The attacker's page: every simple request a page may send to another origin without asking. */
function attackPage(kennel: string): string {
  return `<!doctype html><title>cute cats</title>
<iframe name="sink1" hidden></iframe><iframe name="sink2" hidden></iframe><iframe name="sink3" hidden></iframe>
<form id="empty" method="POST" action="${kennel}/__kennel/reset" target="sink1"></form>
<form id="text" method="POST" enctype="text/plain" action="${kennel}/__kennel/world/reset" target="sink2">
  <input name='{"x":"' value='"}'>
</form>
<form id="urlencoded" method="POST" action="${kennel}/__kennel/world/clock/advance" target="sink3">
  <input name="by" value="1d">
</form>
<p id="done"></p>
<script>
  const kennel = ${JSON.stringify(kennel)};
  const tries = [
    fetch(kennel + '/__kennel/reset', { method: 'POST', mode: 'no-cors' }),
    fetch(kennel + '/__kennel/reset', { method: 'POST', mode: 'no-cors', body: '{"seed":7}', headers: { 'content-type': 'text/plain' } }),
    fetch(kennel + '/__kennel/world/reset', { method: 'POST', mode: 'no-cors' }),
    fetch(kennel + '/__kennel/journal', { method: 'DELETE', mode: 'no-cors' }).catch(() => 'refused'),
  ];
  // Each form's answer loads into its iframe: the page is done once all three have and every fetch settled.
  const answered = ['sink1', 'sink2', 'sink3'].map(
    (name) => new Promise((loaded) => document.querySelector('iframe[name=' + name + ']').addEventListener('load', loaded, { once: true })),
  );
  for (const id of ['empty', 'text', 'urlencoded']) document.getElementById(id).submit();
  Promise.allSettled([...tries, ...answered]).then(() => (document.getElementById('done').textContent = 'done'));
</script>`;
}

describe('the admin and world APIs in Chromium', () => {
  let browser: Browser;
  let kennel: RunningMock;
  let attacker: LoopbackServer;
  let kennelPort: string;

  beforeAll(async () => {
    kennel = await startMock({ port: 0 });
    kennelPort = new URL(kennel.origin).port;
    attacker = await listenOnLoopback(
      createServer((_request, response) => {
        response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        response.end(attackPage(kennel.origin));
      }),
    );
    browser = await launchChromium({
      hostResolverRules: 'MAP attacker.example 127.0.0.1, MAP rebound.example 127.0.0.1',
    });
  });
  afterAll(async () => {
    await browser?.close();
    await attacker?.close();
    await kennel?.close();
  });

  it('a page on another site cannot reset the store or the world, nor clear the journal', async () => {
    const made = await fetch(`${kennel.url}/pets`, {
      method: 'POST',
      headers: DEV_KEY,
      body: JSON.stringify({ name: 'Survivor', categoryId: 1 }),
    });
    expect(made.status).toBe(201);
    const pet = (await made.json()) as { id: number };
    const advanced = await callWorld(kennel.origin, 'POST', '/clock/advance', { by: '3d' });
    expect(advanced.status).toBe(200);
    const before = await callWorld(kennel.origin, 'GET', '/state');
    const setup = { 'x-test-setup': 'yes' };
    expect((await fetch(`${kennel.origin}/__kennel/journal`, { method: 'DELETE', headers: setup })).status).toBe(204);

    const { context } = await strictContext(browser);
    const page = await context.newPage();
    await page.goto(`http://attacker.example:${new URL(attacker.url).port}/`);
    await page.waitForSelector('#done:text("done")', { timeout: 10_000 });
    await context.close();

    expect((await fetch(`${kennel.url}/pets/${pet.id}`, { headers: DEV_KEY })).status).toBe(200);
    const after = await callWorld(kennel.origin, 'GET', '/state');
    expect(after.body.clock).toEqual(before.body.clock);
    const journal = (await (await fetch(`${kennel.origin}/__kennel/journal`)).json()) as {
      entries: { method: string; url: string; status: number; request: { headers: Record<string, string> } }[];
    };
    const attacks = journal.entries.filter(
      (entry) => entry.method !== 'GET' && entry.url.startsWith('/__kennel') && !entry.request.headers['x-test-setup'],
    );
    // Every attempt arrived (three forms, three or four fetches) and was refused.
    expect(attacks.length).toBeGreaterThanOrEqual(6);
    for (const entry of attacks) expect([403, 415], `${entry.method} ${entry.url}`).toContain(entry.status);
  });

  it('a page whose name was re-pointed at 127.0.0.1 (DNS rebinding) cannot read the journal or drive the world', async () => {
    const { context } = await strictContext(browser);
    const page = await context.newPage();
    // The page is on rebound.example, now at kennel's address: /__kennel is its own origin to the browser.
    await page.goto(`http://rebound.example:${kennelPort}/v1/pets`);
    const statuses = await page.evaluate(async () => {
      const call = async (method: string, path: string, body?: string) =>
        (await fetch(path, { method, body, headers: body ? { 'content-type': 'application/json' } : {} })).status;
      return [
        await call('GET', '/__kennel/journal'),
        await call('GET', '/__kennel/world/state'),
        await call('POST', '/__kennel/reset', '{}'),
        await call('POST', '/__kennel/world/reset'),
        await call('GET', '/__kennel/dashboard'),
      ];
    });
    expect(statuses).toEqual([403, 403, 403, 403, 403]);
    await context.close();
  });

  it("kennel's own dashboard, same-origin, still drives the world", async () => {
    const { context, errors } = await strictContext(browser);
    const page = await context.newPage();
    await page.goto(`${kennel.origin}/__kennel/dashboard`);
    const status = await page.evaluate(async () => {
      const response = await fetch('/__kennel/world/clock/advance', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ by: '1h' }),
      });
      return response.status;
    });
    expect(status).toBe(200);
    expect(errors).toEqual([]);
    await context.close();
  });
});
