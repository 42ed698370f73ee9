import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startMock, type RunningMock } from '../../src/serve/server.js';
import { sharedChromium } from '../helpers/browser.js';
import { addRecord, domainCard, eventually, openDashboard, recordRow, visibleText } from '../helpers/dashboard.js';
import { callWorld } from '../helpers/world-client.js';

// The QA bench beside the Domains settings: scenarios, the logs and their filters, live updates, hostile text.
let mock: RunningMock;
let browser: Browser;
let dir: string;

beforeAll(async () => {
  [mock, browser, dir] = await Promise.all([
    startMock({}),
    sharedChromium(),
    mkdtemp(path.join(tmpdir(), 'kennel-dashboard-')),
  ]);
});
afterAll(async () => {
  await mock?.close();
  await rm(dir, { recursive: true, force: true });
});
beforeEach(async () => {
  expect((await callWorld(mock.origin, 'POST', '/reset')).status).toBe(200);
});

const XSS = '<img src=x onerror="window.__pwned=1">';

describe('dashboard QA bench in Chromium', () => {
  it('loads a bundled scenario, steps through it, and plays it to the end', async () => {
    const { page, unexpected, close } = await openDashboard(browser, mock.origin);
    await eventually(() => page.locator('#scenario-pick option').count()).toBeGreaterThan(30);
    await page.selectOption('#scenario-pick', 'caa-blocks-issuance');
    await page.click('#scenario button[type=submit]');
    await eventually(() => page.locator('#scenario-progress').textContent()).toBe('0 of 15 steps played');
    expect(await visibleText(page.locator('#scenario-steps li').first())).toBe('add-domain docs.example.com');
    expect(await page.locator('#scenario-steps li.next').count()).toBe(1);
    // The scenario's given world is there before any step: its zone holds the blocking CAA record.
    await eventually(() => recordRow(page, 'example.com', 'CAA', 'digicert.com').count()).toBe(1);
    expect(await domainCard(page, 'docs.example.com').count()).toBe(0);

    await page.click('#scenario-step');
    await eventually(() => page.locator('#scenario-progress').textContent()).toBe(
      '1 of 15 steps played · all expectations met',
    );
    await eventually(() => domainCard(page, 'docs.example.com').count()).toBe(1);
    await page.click('#scenario-step');
    await eventually(() => page.locator('#scenario-progress').textContent()).toBe(
      '2 of 15 steps played · all expectations met',
    );
    expect(await visibleText(page.locator('#scenario-steps li.passed').nth(1))).toContain(
      'verify docs.example.com T+00:00:00: dns verified (verified); certificate pending (issuing)',
    );
    await eventually(() => visibleText(domainCard(page, 'docs.example.com'))).toContain('DNS verified');

    await page.click('#scenario-all');
    await eventually(() => page.locator('#scenario-progress').textContent()).toBe(
      '15 of 15 steps played · all expectations met',
    );
    expect(await page.locator('#scenario-step').isDisabled()).toBe(true);
    await eventually(() => visibleText(domainCard(page, 'docs.example.com'))).toContain('Certificate issued');
    expect(unexpected()).toEqual([]);
    await close();
  });

  it("loads a YAML scenario from the user's disk, and shows a broken one's problem with its line", async () => {
    const mine = path.join(dir, 'my-apex.yaml');
    await writeFile(
      mine,
      [
        `description: mine ${XSS}`,
        'given:',
        '  zones:',
        '    - { apex: example.io, provider: flexdns }',
        'steps:',
        '  - add-domain: docs.example.io',
        '  - add-record: { name: docs.example.io, type: CNAME, value: petstore-docs.kennel-pages.dev }',
        '  - advance: 2m',
        '  - verify: docs.example.io',
        '    expect:',
        '      domain: { dns: invalid }',
        '',
      ].join('\n'),
    );
    const broken = path.join(dir, 'broken.yaml');
    await writeFile(broken, 'description: broken\nsteps:\n  - add-domain: docs.example.io\n    expcet: {}\n');
    const { page, unexpected, close } = await openDashboard(browser, mock.origin);
    await page.setInputFiles('#scenario-file', mine);
    await eventually(() => page.locator('#scenario-progress').textContent()).toBe('0 of 4 steps played');
    expect(await page.locator('#scenario-description').textContent()).toBe(`my-apex: mine ${XSS}`);
    await page.click('#scenario-all');
    await eventually(() => page.locator('#scenario-progress').textContent()).toBe(
      '4 of 4 steps played · 1 expectation(s) not met',
    );
    expect(await visibleText(page.locator('#scenario-steps li.failed'))).toContain('verify docs.example.io');
    await eventually(() => visibleText(domainCard(page, 'docs.example.io'))).toContain('DNS verified');

    await page.setInputFiles('#scenario-file', broken);
    await eventually(() => page.locator('#scenario-error').textContent()).toMatch(
      /^source:4: .*expcet.* \(invalid_scenario\)$/,
    );
    expect(await page.evaluate('window.__pwned')).toBeUndefined();
    expect(await page.locator('img').count()).toBe(0);
    expect(unexpected()).toEqual([]);
    await close();
  });

  it('filters the DNS query log and the timeline, and shows hostile record text as text', async () => {
    const { page, unexpected, close } = await openDashboard(browser, mock.origin);
    await page.fill('#domain-name', 'docs.example.com');
    await page.click('#add-domain button[type=submit]');
    const card = domainCard(page, 'docs.example.com');
    await card.getByRole('button', { name: 'Verify', exact: true }).click();
    await eventually(() => visibleText(card)).toContain('DNS invalid cname_missing');
    await addRecord(page, 'note.example.com', 'TXT', XSS);
    await eventually(() => recordRow(page, 'example.com', 'TXT').count()).toBe(1);
    expect(await visibleText(recordRow(page, 'example.com', 'TXT'))).toContain(XSS);
    expect(await page.evaluate('window.__pwned')).toBeUndefined();
    expect(await page.locator('img').count()).toBe(0);

    // Another client (dig through the control API) asks about other names: they show up live.
    await callWorld(mock.origin, 'GET', '/dns/query?name=www.example.net&type=A');
    const rows = page.locator('#queries tr:has(td)');
    await eventually(() => visibleText(page.locator('#queries'))).toContain('www.example.net');
    const everything = await rows.count();
    await page.fill('#query-name', 'docs.example.com');
    await eventually(() => rows.count()).toBeLessThan(everything);
    const names = await rows.locator('td:nth-child(3)').allTextContents();
    expect(names.length).toBeGreaterThan(0);
    expect(new Set(names)).toEqual(new Set(['docs.example.com']));
    await page.fill('#query-name', '');
    await page.selectOption('#query-resolver', 'public');
    await eventually(() => rows.locator('td:nth-child(2)').allTextContents()).toEqual(['public']);

    await page.selectOption('#history-kind', 'domain');
    await eventually(() => page.locator('#history li code').allTextContents()).toEqual([
      'domain.verified',
      'domain.added',
    ]);
    expect(unexpected()).toEqual([]);
    await close();
  });
});
