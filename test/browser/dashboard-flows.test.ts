import { describe, expect, it } from 'vitest';
import {
  addRecord,
  advance,
  domainCard,
  eventually,
  openDashboard,
  recordRow,
  visibleText,
  useDashboardWorld,
} from '../helpers/dashboard.js';
import { callWorld } from '../helpers/world-client.js';

// The three flows of the issue, driven like a QA engineer would: type, click, read what the page shows.
const world = useDashboardWorld();

describe('dashboard flows in Chromium', () => {
  it('a CAA record blocks the certificate: the 30-minute guidance shows; removing it and Re-verify issues one', async () => {
    const { page, unexpected, close } = await openDashboard(world.browser, world.mock.origin, {
      permissions: ['clipboard-read', 'clipboard-write'],
    });
    await page.fill('#domain-name', 'docs.example.com');
    await page.click('#add-domain button[type=submit]');
    const card = domainCard(page, 'docs.example.com');
    const records = card.locator('table.records');
    await eventually(() => visibleText(records)).toContain('CNAME docs Copy petstore-docs.kennel-pages.dev Copy 3600');

    // The value the page tells us to create is what we paste at the provider.
    await card.getByRole('button', { name: 'Copy value petstore-docs.kennel-pages.dev' }).click();
    const copied = await page.evaluate<string>('navigator.clipboard.readText()');
    expect(copied).toBe('petstore-docs.kennel-pages.dev');
    await addRecord(page, 'docs.example.com', 'CNAME', copied);
    await addRecord(page, 'example.com', 'CAA', '0 issue digicert.com', 3600);
    await eventually(() => recordRow(page, 'example.com', 'CAA').count()).toBe(1);
    expect(await visibleText(recordRow(page, 'example.com', 'CAA'))).toContain('0 issue "digicert.com"');
    await advance(page, '1m');

    await card.getByRole('button', { name: 'Verify', exact: true }).click();
    await eventually(() => visibleText(card)).toContain('DNS verified');
    expect(await visibleText(card)).toContain('Certificate pending');
    expect(await card.locator('.guidance').count(), 'no guidance before 30 minutes').toBe(0);

    await advance(page, '35m');
    await eventually(() => visibleText(card)).toContain('Certificate timed out');
    const guidance = await visibleText(card.locator('.guidance'));
    expect(guidance).toContain('No certificate after 30 minutes.');
    expect(guidance).toContain('Check that CAA records do not block the certificate authority (letsencrypt.org)');
    expect(guidance).toContain('Use Re-verify');
    const text = await visibleText(card);
    expect(text).toContain('Last error caa_forbids');
    expect(text).toContain('Observed example.com CAA 0 issue "digicert.com"');

    await recordRow(page, 'example.com', 'CAA').getByRole('button', { name: 'Remove' }).click();
    await eventually(() => recordRow(page, 'example.com', 'CAA').count()).toBe(0);
    await card.getByRole('button', { name: 'Re-verify' }).click();
    await eventually(() => visibleText(card)).toContain('Certificate pending');
    // The platform resolver still holds the old CAA answer for its TTL (1 h): issuance follows once it expires.
    await advance(page, '10m');
    expect(await visibleText(card)).toContain('Last error caa_forbids');
    await advance(page, '1h');
    await eventually(() => visibleText(card)).toContain('Certificate issued');
    expect(await card.locator('.guidance').count()).toBe(0);
    expect(await visibleText(card)).toMatch(/serial [0-9a-f]+, valid until/);
    expect(unexpected()).toEqual([]);
    await close();
  });

  it('a conflicting A record: the provider refuses the CNAME, Verify names the A record; removing it verifies', async () => {
    const { page, unexpected, close } = await openDashboard(world.browser, world.mock.origin);
    await addRecord(page, 'docs.example.com', 'A', '203.0.113.5', 300);
    await page.fill('#domain-name', 'docs.example.com');
    await page.click('#add-domain button[type=submit]');
    const card = domainCard(page, 'docs.example.com');
    await eventually(() => card.count()).toBe(1);

    await addRecord(page, 'docs.example.com', 'CNAME', 'petstore-docs.kennel-pages.dev');
    await eventually(() => page.locator('#record-error').textContent()).toBe(
      'FlexDNS refuses a CNAME next to other records at docs.example.com (RFC 1034: a CNAME stands alone) (cname_conflict)',
    );
    await advance(page, '1m');
    await card.getByRole('button', { name: 'Verify', exact: true }).click();
    await eventually(() => visibleText(card)).toContain('DNS invalid conflicting_a_record');
    const text = await visibleText(card);
    expect(text).toContain('a A record at docs.example.com conflicts with the CNAME: remove it');
    expect(text).toContain('Observed docs.example.com 300 A 203.0.113.5');
    expect(text).toContain('Hint delete the A record(s) of docs.example.com, then Verify again');
    expect(text).toContain('Certificate none');

    await recordRow(page, 'example.com', 'docs.example.com', '203.0.113.5')
      .getByRole('button', { name: 'Remove' })
      .click();
    await addRecord(page, 'docs.example.com', 'CNAME', 'petstore-docs.kennel-pages.dev', 3600);
    await eventually(() => recordRow(page, 'example.com', 'CNAME').count()).toBe(1);
    expect(await page.locator('#record-error').textContent()).toBe('');
    await advance(page, '6m');
    await card.getByRole('button', { name: 'Verify', exact: true }).click();
    await eventually(() => visibleText(card)).toContain('DNS verified verified');
    expect(await visibleText(card)).toContain('Certificate pending');

    // Remove, from the menu next to the domain: the card goes at once.
    await card.getByLabel('More actions for docs.example.com').click();
    await card.getByRole('button', { name: 'Remove' }).click();
    await eventually(() => card.count()).toBe(0);
    expect((await callWorld(world.mock.origin, 'GET', '/domains')).body).toEqual([]);
    expect(unexpected()).toEqual([]);
    await close();
  });

  it('an apex at a provider without ALIAS: the page says it needs ALIAS/ANAME, and Verify fails for that reason', async () => {
    const { page, unexpected, close } = await openDashboard(world.browser, world.mock.origin);
    await page.fill('#domain-name', 'example.org');
    await page.click('#add-domain button[type=submit]');
    const card = domainCard(page, 'example.org');
    await eventually(() => card.count()).toBe(1);
    expect(await visibleText(card.locator('header'))).toContain('apex domain');
    expect(await visibleText(card.locator('table.records'))).toContain(
      'ALIAS or ANAME @ Copy petstore-docs.kennel-pages.dev Copy 3600',
    );
    expect(await visibleText(card.locator('.warning'))).toBe(
      'An apex domain needs an ALIAS or ANAME record (a CNAME cannot sit at the apex). ClassicDNS does not support ALIAS or ANAME: move the DNS to a provider that does, add A records for 198.51.100.10, 198.51.100.11, or use a subdomain such as www.example.org.',
    );
    // Where the clipboard is refused (an insecure origin, a denied permission) the value is selected to copy by hand.
    await page.evaluate(
      `navigator.clipboard.writeText = () => Promise.reject(new DOMException('denied', 'NotAllowedError'))`,
    );
    await card.getByRole('button', { name: 'Copy name @' }).click();
    const fallback = card.locator('input.copy-fallback');
    await eventually(() => fallback.inputValue()).toBe('@');
    type Field = { selectionStart: number; selectionEnd: number; ownerDocument: { activeElement: unknown } };
    const selected = await fallback.evaluate(
      (input: Field) => input.ownerDocument.activeElement === input && input.selectionEnd - input.selectionStart,
    );
    expect(selected, 'focused, with its whole text selected').toBe(1);
    expect(await visibleText(page.locator('article.zone[data-zone="example.org"] h4'))).toBe(
      'example.org at ClassicDNS (no ALIAS)',
    );

    await addRecord(page, 'example.org', 'ALIAS', 'petstore-docs.kennel-pages.dev');
    await eventually(() => page.locator('#record-error').textContent()).toBe(
      'ClassicDNS does not offer ALIAS/ANAME records (alias_unsupported)',
    );
    await card.getByRole('button', { name: 'Verify', exact: true }).click();
    await eventually(() => visibleText(card)).toContain('DNS invalid apex_alias_unsupported');
    expect(await visibleText(card)).toContain(
      'ClassicDNS does not offer ALIAS/ANAME records, which an apex domain needs',
    );
    expect(unexpected()).toEqual([]);
    await close();
  });
});
