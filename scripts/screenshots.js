// Screenshots of the Domains dashboard for the README and docs/domains-tour.md (docs/images/dashboard-*.png), taken with the
// same Debian Chromium the tests use, and the page's weight and time to first render.
//
//   npm run build && node scripts/screenshots.js [prefix]
//
// With a prefix (e.g. `ca-`), only the pictures whose names start with it are written.
//
// It starts `kennel serve` in-process on a free loopback port, sets the world up through the
// control API (the scenarios QA would load), and photographs parts of the page.
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const root = new URL('..', import.meta.url);
const { startMock } = await import(new URL('dist/serve/server.js', root).href);
const out = new URL('docs/images/', root);
mkdirSync(out, { recursive: true });

const only = process.argv[2];
const mock = await startMock({});
const world = (method, path, body) =>
  fetch(`${mock.origin}/__kennel/world${path}`, {
    method,
    headers: body ? { 'content-type': 'application/json' } : {},
    body: body ? JSON.stringify(body) : undefined,
  }).then((response) => response.json());
const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu'],
});

try {
  await world('GET', '/state'); // the world starts on first use: not part of the page's render time
  const page = await browser.newPage({ viewport: { width: 1360, height: 900 } });

  // Weight: the page's files as served. First render: navigation start until the page has drawn the
  // world (the page marks it), and the browser's first contentful paint.
  let bytes = 0;
  for (const file of ['', '/app.css', '/app.js', '/api.js', '/dom.js', '/domains.js', '/bench.js'])
    bytes += (await (await fetch(`${mock.origin}/__kennel/dashboard${file}`)).arrayBuffer()).byteLength;
  await page.goto(`${mock.origin}/__kennel/dashboard`);
  await page.waitForSelector('article.zone');
  const [paint, drawn] = await page.evaluate(() => [
    performance.getEntriesByName('first-contentful-paint')[0]?.startTime,
    performance.getEntriesByName('kennel:world-drawn')[0]?.startTime,
  ]);
  console.log(
    `page weight ${bytes} bytes (HTML + JS + CSS, uncompressed); first contentful paint ${Math.round(paint)} ms; world drawn ${Math.round(drawn)} ms`,
  );

  const shoot = async (name, selector) => {
    if (only && !name.startsWith(only)) return;
    await page
      .locator(selector)
      .first()
      .screenshot({ path: fileURLToPath(new URL(`dashboard-${name}.png`, out)) });
    console.log(`wrote docs/images/dashboard-${name}.png`);
  };
  const load = async (name, upTo) => {
    await world('POST', '/scenario', { name, ...upTo });
    await page.reload();
    await page.waitForSelector('article.domain');
  };

  // Every moment of a CAA block and its fix (docs/dashboard.md): failing before 30 minutes, timed
  // out with the guidance, the CA still reading its cached answer after the fix, issued.
  await load('caa-blocks-issuance', { steps: 4 });
  await shoot('caa-early', 'article.domain');
  await load('caa-blocks-issuance', { upTo: 'timed out' });
  await shoot('caa', 'article.domain');
  await load('caa-blocks-issuance', { upTo: 'still cached' });
  await shoot('caa-cached', 'article.domain');
  await load('caa-blocks-issuance', {});
  await shoot('caa-issued', 'article.domain');

  await load('conflicting-a-record', { steps: 3 });
  await shoot('conflict', 'article.domain');

  await load('apex-without-alias-classicdns', { steps: 4 });
  await shoot('apex', 'article.domain');

  // The CA's rate limits: the sixth certificate for the same name in a week is refused.
  await load('ca-rate-limit-duplicate', { upTo: 'sixth refused' });
  await shoot('ca-rate-limited', 'article.domain');
  await shoot('ca-limits', '#ca');

  // DNSSEC: a stale DS at the registrar, the zone's state on its card and Verify naming it.
  await load('dnssec-stale-ds', { steps: 7 });
  await shoot('dnssec-verify', 'article.domain');
  await shoot('dnssec-zone', 'article.zone[data-zone="example.com"]');

  if (!only) {
    await page.setViewportSize({ width: 1360, height: 1400 });
    await page.reload();
    await page.waitForSelector('#scenario-pick option', { state: 'attached' });
    await page.selectOption('#scenario-pick', 'stale-cache-after-fix');
    await page.click('#scenario button[type=submit]');
    for (let step = 0; step < 4; step += 1) {
      await page.click('#scenario-step');
      await page.waitForFunction(
        (count) => document.querySelectorAll('#scenario-steps li.passed, #scenario-steps li.failed').length === count,
        step + 1,
      );
    }
    // The scenario part of the bench: its form down to the last step.
    const [top, bottom] = await Promise.all([
      page.locator('#scenario').boundingBox(),
      page.locator('#scenario-view').boundingBox(),
    ]);
    const clip = { x: top.x - 8, y: top.y - 36, width: top.width + 16, height: bottom.y + bottom.height - top.y + 44 };
    await page.screenshot({ path: fileURLToPath(new URL('dashboard-bench.png', out)), clip });
    console.log('wrote docs/images/dashboard-bench.png');
  }
} finally {
  await browser.close();
  await mock.close();
}
