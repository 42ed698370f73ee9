import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, expect } from 'vitest';
import { startMock, type RunningMock } from '../../src/serve/server.js';
import { sharedChromium, strictContext } from './browser.js';
import { callWorld } from './world-client.js';

/** `expect.poll` with room for a busy machine: the page answers in milliseconds, CI shares two cores. */
export const eventually = <T>(read: () => T | Promise<T>) => expect.poll(read, { timeout: 8000, interval: 50 });

/** What Chromium logs for a fetch the control API refused (4xx): expected when a flow provokes a refusal. */
const REFUSED = /Failed to load resource: the server responded with a status of 4\d\d/;

/** A dashboard page in a fresh strict context; `unexpected()` lists page errors beyond refused requests. */
export async function openDashboard(
  browser: Browser,
  origin: string,
  options: Parameters<Browser['newContext']>[0] = {},
  /** Runs before the page loads: a fake clock, an init script. */
  prepare: (page: Page) => Promise<void> = async () => undefined,
): Promise<{ page: Page; unexpected: () => string[]; close: () => Promise<void> }> {
  const { context, errors } = await strictContext(browser, { viewport: { width: 1400, height: 1000 }, ...options });
  const page = await context.newPage();
  await prepare(page);
  await page.goto(`${origin}/__kennel/dashboard`);
  await eventually(() => page.locator('#live').textContent()).toBe('live');
  return { page, unexpected: () => errors.filter((error) => !REFUSED.test(error)), close: () => context.close() };
}

/** The card of an attached domain, as a person finds it by its name. */
export const domainCard = (page: Page, name: string): Locator => page.locator(`article.domain[data-domain="${name}"]`);

/** A zone's record row, found by the text a person reads in it (name, type, value). */
export function recordRow(page: Page, zone: string, ...cells: string[]): Locator {
  let row = page.locator(`article.zone[data-zone="${zone}"] tr`);
  for (const cell of cells) row = row.filter({ hasText: cell });
  return row;
}

/** Fills the bench's "Record" form and submits it. */
export async function addRecord(page: Page, name: string, type: string, value: string, ttl?: number): Promise<void> {
  await page.fill('#record-name', name);
  await page.selectOption('#record-type', type);
  await page.fill('#record-value', value);
  await page.fill('#record-ttl', ttl === undefined ? '' : String(ttl));
  await page.click('#add-record button[type=submit]');
}

/** Moves the virtual clock with the bench's "Advance by" form and waits for the page to show the move. */
export async function advance(page: Page, by: string): Promise<void> {
  await page.fill('#advance-by', by);
  await page.click('#advance button[type=submit]');
  await eventually(() => page.locator('#clock-note').textContent()).toBe(`moved ${by}`);
}

/** Text a person reads in `locator`, whitespace collapsed. */
export async function visibleText(locator: Locator): Promise<string> {
  return (await locator.innerText()).replace(/\s+/g, ' ').trim();
}

/**
 * One kennel serve (with its live world) for a test file and the worker's Chromium, the world reset before
 * each test: `const world = useDashboardWorld()`, then `world.mock` and `world.browser` in tests.
 */
export function useDashboardWorld(): { readonly mock: RunningMock; readonly browser: Browser } {
  const held: { mock?: RunningMock; browser?: Browser } = {};
  beforeAll(async () => {
    [held.mock, held.browser] = await Promise.all([startMock({}), sharedChromium()]);
  });
  afterAll(async () => {
    await held.mock?.close();
  });
  beforeEach(async () => {
    expect((await callWorld(held.mock!.origin, 'POST', '/reset')).status).toBe(200);
  });
  return {
    get mock() {
      return held.mock!;
    },
    get browser() {
      return held.browser!;
    },
  };
}
