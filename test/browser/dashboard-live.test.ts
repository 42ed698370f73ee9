import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { domainCard, eventually, openDashboard, visibleText, useDashboardWorld } from '../helpers/dashboard.js';
import { startMock } from '../../src/serve/server.js';
import { callWorld } from '../helpers/world-client.js';

// The page keeps up with the world: other clients' changes, a hidden tab, an admin token.
const world = useDashboardWorld();

/** The dashboard's poll period (web/dashboard/app.js). */
const POLL_MS = 1000;

/**
 * The page's clock under the test's hand (`page.clock`, paused), and counters inside the page:
 * revision polls started (a poll starts when its timer fires) and settled, and syncs done (each
 * ends by writing #live).
 */
async function withPageClock(page: Page): Promise<void> {
  await page.clock.install();
  // Paused from the start: no timer fires unless the test runs the clock (the first sync needs none).
  await page.clock.pauseAt(Date.now() + 1000);
  await page.addInitScript(`{
    const counts = { started: 0, settled: 0, synced: 0 };
    window.kennelTestCounts = counts;
    const fetchBefore = window.fetch.bind(window);
    window.fetch = async (...args) => {
      const poll = String(args[0] instanceof Request ? args[0].url : args[0]).endsWith('/revision');
      if (poll) counts.started += 1;
      try {
        return await fetchBefore(...args);
      } finally {
        if (poll) counts.settled += 1;
      }
    };
    document.addEventListener('DOMContentLoaded', () => {
      new MutationObserver(() => (counts.synced += 1)).observe(document.getElementById('live'), { childList: true });
    });
  }`);
}

type Counts = { started: number; settled: number; synced: number };
const counts = (page: Page): Promise<Counts> => page.evaluate<Counts>('window.kennelTestCounts');
const pollsStarted = async (page: Page): Promise<number> => (await counts(page)).started;
const pollsInFlight = async (page: Page): Promise<number> => {
  const { started, settled } = await counts(page);
  return started - settled;
};
const syncsDone = async (page: Page): Promise<number> => (await counts(page)).synced;

/** Headless Chromium is always visible: the page is told otherwise the way a browser tells it. */
const setHidden = (page: Page, hidden: boolean) =>
  page.evaluate(`Object.defineProperty(document, 'hidden', { value: ${hidden}, configurable: true });
    document.dispatchEvent(new Event('visibilitychange'))`);

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
    const { page, unexpected, close } = await openDashboard(world.browser, world.mock.origin, {}, withPageClock);
    await setHidden(page, true);
    const hiddenAt = await pollsStarted(page);
    expect((await callWorld(world.mock.origin, 'POST', '/domains', { name: 'hidden.example.com' })).status).toBe(201);
    await page.clock.runFor(5 * POLL_MS);
    expect(await pollsStarted(page), 'no poll while hidden').toBe(hiddenAt);
    expect(await domainCard(page, 'hidden.example.com').count()).toBe(0);
    await setHidden(page, false);
    await eventually(() => domainCard(page, 'hidden.example.com').count()).toBe(1);
    expect(unexpected()).toEqual([]);
    await close();
  });

  it('polls once a second however many syncs overlapped', async () => {
    const { page, unexpected, close } = await openDashboard(world.browser, world.mock.origin, {}, withPageClock);
    await eventually(() => pollsInFlight(page)).toBe(0);
    // A tab shown several times in a row starts several syncs at once (as actions overlapping a poll do).
    const synced = await syncsDone(page);
    await page.evaluate(`for (let i = 0; i < 5; i += 1) document.dispatchEvent(new Event('visibilitychange'))`);
    await eventually(async () => (await syncsDone(page)) - synced).toBe(5);
    for (let second = 0; second < 3; second += 1) {
      const before = await pollsStarted(page);
      await page.clock.runFor(POLL_MS - 1);
      expect(await pollsStarted(page), 'not before the second is up').toBe(before);
      const done = await syncsDone(page);
      await page.clock.runFor(1);
      expect(await pollsStarted(page), 'one polling timer, not one per overlapping sync').toBe(before + 1);
      await eventually(() => syncsDone(page)).toBe(done + 1);
    }
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
