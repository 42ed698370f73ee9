import { describe, expect, it } from 'vitest';
import { domainCard, eventually, openDashboard, visibleText, useDashboardWorld } from '../helpers/dashboard.js';
import { startMock } from '../../src/mock/server.js';
import { callWorld } from '../helpers/world-client.js';

// The page keeps up with the world: other clients' changes, a hidden tab, an admin token.
const world = useDashboardWorld();

describe('dashboard live updates in Chromium', () => {
  it('updates live when another client changes the world; outage, primary and redirects from the page', async () => {
    const { page, unexpected, close } = await openDashboard(world.browser, world.mock.origin);
    for (const name of ['docs.example.com', 'www.example.com'])
      expect((await callWorld(world.mock.origin, 'POST', '/domains', { name })).status).toBe(201);
    await eventually(() => page.locator('article.domain').count()).toBe(2);

    await page.check('article.zone[data-zone="example.net"] input[type=checkbox]');
    await eventually(
      async () => (await callWorld(world.mock.origin, 'GET', '/zones/example.net')).body.failing,
    ).toEqual(['*']);
    await eventually(() => visibleText(page.locator('article.zone[data-zone="example.net"] .outage'))).toBe(
      'Outage: name servers answer SERVFAIL (*)',
    );

    await domainCard(page, 'docs.example.com').getByRole('button', { name: 'Make primary' }).click();
    await eventually(() => page.locator('#primary').textContent()).toBe('Primary domain: docs.example.com');
    await page.selectOption('#redirect-from', 'www.example.com');
    await page.selectOption('#redirect-to', 'docs.example.com');
    await page.click('#add-redirect button[type=submit]');
    await eventually(() => visibleText(page.locator('#redirects'))).toBe(
      'www.example.com → docs.example.com 301 Remove',
    );
    await page.selectOption('#redirect-from', 'docs.example.com');
    await page.selectOption('#redirect-to', 'docs.example.com');
    await page.click('#add-redirect button[type=submit]');
    await eventually(() => page.locator('#redirect-error').textContent()).toMatch(/\(\w+\)$/);

    await page.fill('#domain-name', 'not a name');
    await page.click('#add-domain button[type=submit]');
    await eventually(() => page.locator('#domain-name-error').textContent()).toMatch(/name.*\((invalid_\w+)\)$/);
    await page.fill('#advance-by', 'soon');
    await page.click('#advance button[type=submit]');
    await eventually(() => page.locator('#advance-error').textContent()).toMatch(/\/by .*\(invalid_body\)$/);
    expect(unexpected()).toEqual([]);
    await close();
  });

  it('stops polling while the tab is hidden, and catches up when it is shown again', async () => {
    const { page, unexpected, close } = await openDashboard(world.browser, world.mock.origin);
    const polls: number[] = [];
    page.on('request', (request) => {
      if (request.url().endsWith('/__kennel/world/revision')) polls.push(Date.now());
    });
    await eventually(() => polls.length).toBeGreaterThan(0);
    // Headless Chromium is always visible: the page is told otherwise the way a browser tells it.
    const setHidden = (hidden: boolean) =>
      page.evaluate(`Object.defineProperty(document, 'hidden', { value: ${hidden}, configurable: true });
        document.dispatchEvent(new Event('visibilitychange'))`);
    await setHidden(true);
    await new Promise((resolve) => setTimeout(resolve, 300)); // a poll already under way may still finish
    const hiddenAt = polls.length;
    expect((await callWorld(world.mock.origin, 'POST', '/domains', { name: 'hidden.example.com' })).status).toBe(201);
    await new Promise((resolve) => setTimeout(resolve, 2500));
    expect(polls.length, 'no poll while hidden').toBe(hiddenAt);
    expect(await domainCard(page, 'hidden.example.com').count()).toBe(0);
    await setHidden(false);
    await eventually(() => domainCard(page, 'hidden.example.com').count()).toBe(1);
    expect(unexpected()).toEqual([]);
    await close();
  });

  it('polls about once a second however many syncs overlapped', async () => {
    const { page, unexpected, close } = await openDashboard(world.browser, world.mock.origin);
    // A tab shown several times in a row starts several syncs at once (as actions overlapping a poll do).
    await page.evaluate(`for (let i = 0; i < 5; i += 1) document.dispatchEvent(new Event('visibilitychange'))`);
    const polls: number[] = [];
    page.on('request', (request) => {
      if (request.url().endsWith('/__kennel/world/revision')) polls.push(Date.now());
    });
    await new Promise((resolve) => setTimeout(resolve, 3200));
    expect(polls.length, 'one polling timer, not one per overlapping sync').toBeLessThanOrEqual(4);
    expect(polls.length).toBeGreaterThanOrEqual(2);
    expect(unexpected()).toEqual([]);
    await close();
  });

  it('asks for the admin token when kennel serve has one, and keeps it for the tab', async () => {
    const guarded = await startMock({ adminToken: 'sesame' });
    try {
      const { page, close } = await openDashboardGuarded(guarded.origin);
      await eventually(() => page.locator('#token-form').isVisible()).toBe(true);
      await page.fill('#token', 'sesame');
      await page.click('#token-form button[type=submit]');
      await eventually(() => page.locator('#live').textContent()).toBe('live');
      await eventually(() => page.locator('article.zone').count()).toBe(3);
      expect(await page.evaluate(() => sessionStorage.getItem('kennel.adminToken'))).toBe('sesame');
      await close();
    } finally {
      await guarded.close();
    }
  });
});

/** The page against a server with --admin-token: it cannot reach "live" before the token is given. */
async function openDashboardGuarded(origin: string) {
  const context = await world.browser.newContext();
  const page = await context.newPage();
  await page.goto(`${origin}/__kennel/dashboard`);
  return { page, close: () => context.close() };
}
