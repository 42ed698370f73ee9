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

// Issue 22: at every moment of a CAA block and its fix, the card says what blocks issuance and
// whether the CA's view is cached; and the small lies the dashboard told are gone. Read in Chromium.
const world = useDashboardWorld();

describe('the dashboard never contradicts itself', () => {
  it('a CAA block before 30 minutes, and the cached answer after the fix, are shown as such', async () => {
    const { page, unexpected, close } = await openDashboard(world.browser, world.mock.origin);
    await page.fill('#domain-name', 'docs.example.com');
    await page.click('#add-domain button[type=submit]');
    const card = domainCard(page, 'docs.example.com');
    await eventually(() => card.count()).toBe(1);
    await addRecord(page, 'docs.example.com', 'CNAME', 'petstore-docs.kennel-pages.dev');
    await addRecord(page, 'example.com', 'CAA', '0 issue digicert.com', 3600);
    await eventually(() => recordRow(page, 'example.com', 'CAA').count()).toBe(1);
    await advance(page, '1m');
    await card.getByRole('button', { name: 'Verify', exact: true }).click();
    await eventually(() => visibleText(card)).toContain('DNS verified');

    // Before 30 minutes: failing, with the blocking record, and no "usually within a few minutes".
    await advance(page, '6m');
    await eventually(() => visibleText(card)).toContain('Last error caa_forbids');
    const early = await visibleText(card);
    expect(early).not.toContain('usually within a few minutes');
    expect(early).toContain('issuance is failing and is retried every 10m');
    expect(early).toContain('Observed example.com CAA 0 issue "digicert.com"');
    expect(await card.locator('.guidance').count()).toBe(0);

    // The fix: the CA keeps reading its cached answer for up to an hour, and the card says until when.
    await recordRow(page, 'example.com', 'CAA').getByRole('button', { name: 'Remove' }).click();
    await eventually(() => recordRow(page, 'example.com', 'CAA').count()).toBe(0);
    await card.getByRole('button', { name: 'Re-verify' }).click();
    await advance(page, '10m');
    await eventually(() => visibleText(card.locator('.cached'))).toMatch(
      /still reads a cached DNS answer until \d{4}-\d\d-\d\d \d\d:\d\d:\d\dZ/,
    );
    expect(await visibleText(card)).toMatch(/Cached answer until \d{4}-/);
    await advance(page, '1h');
    await eventually(() => visibleText(card)).toContain('Certificate issued');
    expect(await card.locator('.cached').count()).toBe(0);
    expect(unexpected()).toEqual([]);
    await close();
  });

  it('the redirect form never starts at "a → a", and keeps a person\'s choice', async () => {
    const { page, unexpected, close } = await openDashboard(world.browser, world.mock.origin);
    for (const name of ['docs.example.com', 'www.example.com']) {
      await page.fill('#domain-name', name);
      await page.click('#add-domain button[type=submit]');
      await eventually(() => domainCard(page, name).count()).toBe(1);
    }
    const [from, to] = [page.locator('#redirect-from'), page.locator('#redirect-to')];
    expect(await from.inputValue()).not.toBe(await to.inputValue());
    await page.selectOption('#redirect-to', 'www.example.com');
    await page.selectOption('#redirect-from', 'docs.example.com');
    await advance(page, '1m'); // a re-render keeps what was chosen
    expect([await from.inputValue(), await to.inputValue()]).toEqual(['docs.example.com', 'www.example.com']);
    expect(unexpected()).toEqual([]);
    await close();
  });

  it('a CNAME value typed as a URL is refused as a URL, naming the host to type', async () => {
    const { page, close } = await openDashboard(world.browser, world.mock.origin);
    await addRecord(page, 'docs.example.com', 'CNAME', 'https://petstore-docs.kennel-pages.dev/');
    await eventually(() => page.locator('#record-error').textContent()).toMatch(
      /is a URL, not a domain name: enter only the host name \(petstore-docs\.kennel-pages\.dev\)/,
    );
    expect(await page.locator('#record-error').textContent()).not.toMatch(/IP address/);
    await close();
  });

  it('a flattened CNAME says flattening, and a cached TTL is not read as a mismatch', async () => {
    const { page, unexpected, close } = await openDashboard(world.browser, world.mock.origin);
    await page.fill('#domain-name', 'docs.example.com');
    await page.click('#add-domain button[type=submit]');
    const card = domainCard(page, 'docs.example.com');
    await eventually(() => card.count()).toBe(1);
    await addRecord(page, 'docs.example.com', 'ALIAS', 'petstore-docs.kennel-pages.dev');
    await advance(page, '1m');
    await card.getByRole('button', { name: 'Verify', exact: true }).click();
    await eventually(() => visibleText(card)).toContain('cname_missing');
    expect(await visibleText(card)).toContain('the DNS provider flattens the CNAME');

    await recordRow(page, 'example.com', 'ALIAS').getByRole('button', { name: 'Remove' }).click();
    await addRecord(page, 'docs.example.com', 'CNAME', 'petstore-docs.kennel-pages.dev', 3600);
    await advance(page, '20m');
    await card.getByRole('button', { name: 'Verify', exact: true }).click();
    await eventually(() => visibleText(card)).toContain('DNS verified');
    await advance(page, '25m');
    await card.getByRole('button', { name: 'Re-verify' }).click();
    await eventually(() => visibleText(card)).toContain('(from the resolver cache: TTL left, not the TTL set)');
    expect(unexpected()).toEqual([]);
    await close();
  });
});

describe('the CA rate limits, as the dashboard shows them', () => {
  it('a used-up limit is named on the card and in the CA section, with when the next comes back', async () => {
    const { page, unexpected, close } = await openDashboard(world.browser, world.mock.origin);
    const played = await callWorld(world.mock.origin, 'POST', '/scenario', {
      name: 'ca-rate-limit-duplicate',
      upTo: 'sixth refused',
    });
    expect(played.status).toBe(200);
    const card = domainCard(page, 'docs.example.com');
    await eventually(() => visibleText(card)).toContain('Last error rate_limited');
    const note = await visibleText(card.locator('.rate-limit'));
    expect(note).toMatch(
      /^The certificate authority refuses new orders for docs\.example\.com \(rate_limited\) until \d{4}-\d\d-\d\d \d\d:\d\d:\d\dZ: 0 of 5 certificates for exactly docs\.example\.com left per 7d/,
    );
    expect(note).toContain('45 of 50 new certificates under example.com left per 7d');
    const ca = page.locator('#ca');
    expect(await visibleText(ca)).toContain(
      'letsencrypt.org: 5 certificates for the same set of names per 7d · 50 new certificates per registered domain per 7d',
    );
    const blocked = ca.locator('tr.blocked');
    expect(await blocked.count()).toBe(1);
    expect(await visibleText(blocked)).toMatch(/^certificates for exactly docs\.example\.com 0 of 5 · blocked \d{4}-/);

    // The CA said when: then the platform orders again and gets the certificate, which uses the
    // limit up again (the next would wait another 33h 36m): the CA section says so, the card no longer warns.
    await advance(page, '34h');
    await eventually(() => visibleText(card)).toContain('Certificate issued');
    expect(await card.locator('.rate-limit.warning').count()).toBe(0);
    expect(await visibleText(card.locator('.rate-limit'))).toMatch(/^CA rate limits: 0 of 5 certificates for exactly/);
    expect(await visibleText(ca.locator('tr.blocked'))).toMatch(/^certificates for exactly docs\.example\.com 0 of 5/);
    expect(unexpected()).toEqual([]);
    await close();
  });
});

describe('DNSSEC, as the dashboard shows it', () => {
  it("a zone's DNSSEC state is set from its card, and Verify on a stale DS names DNSSEC", async () => {
    const { page, unexpected, close } = await openDashboard(world.browser, world.mock.origin);
    await page.fill('#domain-name', 'docs.example.com');
    await page.click('#add-domain button[type=submit]');
    const card = domainCard(page, 'docs.example.com');
    await eventually(() => card.count()).toBe(1);
    await addRecord(page, 'docs.example.com', 'CNAME', 'petstore-docs.kennel-pages.dev');
    await eventually(() => recordRow(page, 'example.com', 'CNAME').count()).toBe(1);
    const zone = page.locator('article.zone[data-zone="example.com"]');
    await zone.getByRole('combobox', { name: 'DNSSEC state of example.com' }).selectOption('stale-ds');
    await eventually(() => visibleText(zone.locator('.dnssec'))).toContain(
      'a DS for a key the zone lacks: validating resolvers answer SERVFAIL',
    );
    expect((await callWorld(world.mock.origin, 'GET', '/zones/example.com')).body.dnssec).toBe('stale-ds');
    await advance(page, '1m');
    await card.getByRole('button', { name: 'Verify', exact: true }).click();
    await eventually(() => visibleText(card)).toContain('dns_lookup_failed');
    const text = await visibleText(card);
    expect(text).toContain('DNSSEC validation failed (DNSKEY Missing)');
    expect(text).toContain('remove the DS at the registrar');
    expect(unexpected()).toEqual([]);
    await close();
  });
});
