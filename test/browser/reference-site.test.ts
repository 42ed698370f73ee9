import { createHash, X509Certificate } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchChromium, strictContext } from '../helpers/browser.js';
import { runCli, type CliRun } from '../helpers/cli.js';
import { callWorld } from '../helpers/world-client.js';

// What a person sees in the API reference, in real Chromium: over the HTTPS documentation site of
// `kennel serve --site-port` (platform host and a verified custom domain) and at /__kennel/docs.
// The browser trusts only the kennel root, by its public key hash: a certificate that does not
// chain to it still fails.
const PLATFORM_HOST = 'petstore-docs.kennel-pages.dev';
const CUSTOM_DOMAIN = 'docs.example.com';
const KEY = 'kennel-dev-key';

let cli: CliRun;
let origin: string;
let sitePort: number;
let browser: Browser;
let pet: { id: number; name: string };

const world = (method: string, path: string, body?: unknown) => callWorld(origin, method, path, body);

/** base64(SHA-256(SubjectPublicKeyInfo)), the form of Chromium's --ignore-certificate-errors-spki-list. */
function spkiHash(pem: string): string {
  const der = new X509Certificate(pem).publicKey.export({ type: 'spki', format: 'der' });
  return createHash('sha256').update(der).digest('base64');
}

beforeAll(async () => {
  cli = runCli(['serve', '--port', '0', '--site-port', '0', '--log-level', 'silent']);
  ({ origin } = await cli.ready);
  sitePort = Number(/site {5}https:\/\/127\.0\.0\.1:(\d+)/.exec(cli.stderr())![1]);
  expect((await world('POST', '/domains', { name: CUSTOM_DOMAIN })).status).toBe(201);
  const cname = { name: CUSTOM_DOMAIN, type: 'CNAME', value: PLATFORM_HOST, ttl: 3600 };
  expect((await world('POST', '/records', cname)).status).toBe(201);
  await world('POST', '/clock/advance', { by: '1m' });
  expect((await world('POST', `/domains/${CUSTOM_DOMAIN}/verify`)).status).toBe(200);
  await world('POST', '/clock/advance', { until: 'certificate-issued', domain: CUSTOM_DOMAIN });
  const root = (await world('GET', '/ca/root.pem')).text;
  browser = await launchChromium({
    hostResolverRules: 'MAP * 127.0.0.1',
    args: [`--ignore-certificate-errors-spki-list=${spkiHash(root)}`],
  });
  // A pet created through the API first: the try-it panel must show this live data.
  const created = await fetch(`${origin}/v1/pets`, {
    method: 'POST',
    headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'Biscuit the Browser Test', categoryId: 2, status: 'pending' }),
  });
  expect(created.status).toBe(201);
  pet = (await created.json()) as { id: number; name: string };
});
afterAll(async () => {
  await browser?.close();
  cli?.stop();
  await cli?.code;
});

/** Clicks an operation's Send button and returns what its result panel then shows. */
async function send(page: Page, operation: string): Promise<{ status: string; headers: string; body: string }> {
  const form = page.locator(`#op-${operation} form.try-it`);
  const status = form.locator('.try-it-status');
  await form.getByRole('button', { name: 'Send request' }).click();
  // The click shows "Sending …" at once (the submit handler runs before its first await).
  await expect
    .poll(async () => (await status.textContent()) ?? '', { timeout: 10_000 })
    .toMatch(/^(?!Sending)(.+ → \d{3}|.+ failed: |Not sent: )/);
  const headers = form.locator('.try-it-headers');
  if ((await headers.getAttribute('open')) === null) await headers.locator('summary').click();
  return {
    status: await status.innerText(),
    headers: await form.locator('.try-it-headers pre').innerText(),
    body: await form.locator('.try-it-body').innerText(),
  };
}

describe('the reference on the HTTPS documentation site', () => {
  it(`on ${PLATFORM_HOST}: getPet deprecated, orders panel disabled, List pets returns live data with the reader's key`, async () => {
    const { context, errors } = await strictContext(browser);
    const page = await context.newPage();
    const response = await page.goto(`https://${PLATFORM_HOST}:${sitePort}/`);
    expect(response!.status()).toBe(200);
    expect(await page.title()).toBe('Pet Store API 1.0.0: API reference');

    const getPet = page.locator('#op-getPet');
    await expect.poll(() => getPet.locator('h3').innerText()).toContain('Deprecated');
    const notice = await getPet.getByRole('note').innerText();
    expect(notice).toContain('5 December 2030');
    expect(notice).toContain('Replacement: GET /pets (listPets): GET /pets with a status filter.');

    const orders = page.locator('#op-listStoreOrders form.try-it');
    expect(await orders.getByRole('button', { name: 'Send request' }).isDisabled()).toBe(true);
    expect(await orders.innerText()).toContain('Try it is disabled for this operation');

    // The mock has only its public development key: the field starts with it, so a first click works.
    expect(await page.getByLabel('Your API key').inputValue()).toBe(KEY);
    // Without the reader's key, the mock answers 401: the page adds no credentials of its own.
    await page.getByLabel('Your API key').fill('');
    const anonymous = await send(page, 'listPets');
    expect(anonymous.status).toBe('GET /v1/pets → 401 Unauthorized');
    expect(anonymous.body).toContain('"code": "missing_api_key"');

    await page.getByLabel('Your API key').fill(KEY);
    // The panel sends what the document forbids too: the reader sees the API's error.
    await page.locator('#op-listPets').getByLabel('limit').fill('500');
    const tooMany = await send(page, 'listPets');
    expect(tooMany.status).toBe('GET /v1/pets?limit=500 → 400 Bad Request');
    await page.locator('#op-listPets').getByLabel('limit').fill('');
    await page.locator('#op-listPets').getByLabel('status').selectOption('pending');
    const listed = await send(page, 'listPets');
    expect(listed.status).toBe('GET /v1/pets?status=pending → 200 OK');
    expect(listed.headers).toMatch(/^content-type: application\/json/m);
    const pets = JSON.parse(listed.body) as { id: number; name: string; status: string }[];
    expect(pets).toContainEqual({ id: pet.id, name: pet.name, categoryId: 2, status: 'pending' });
    expect(pets.every((item) => item.status === 'pending')).toBe(true);

    expect(await page.locator('footer').innerText()).toBe(`Served for ${PLATFORM_HOST} by project petstore-docs.`);
    // Chromium logs every 4xx fetch to the console: the 401 and the 400 are the only ones expected.
    expect(errors.filter((error) => !/status of 40[01]/.test(error))).toEqual([]);
    expect(errors).toHaveLength(2);
    await context.close();
  });

  it(`on the verified custom domain ${CUSTOM_DOMAIN}: Get an animal shows the pet and the Sunset header`, async () => {
    const { context, errors } = await strictContext(browser);
    const page = await context.newPage();
    expect((await page.goto(`https://${CUSTOM_DOMAIN}:${sitePort}/`))!.status()).toBe(200);
    await page.getByLabel('Your API key').fill(KEY);
    expect((await send(page, 'getPet')).status).toBe('Not sent: petId is required');
    await page.locator('#op-getPet').getByLabel('petId').fill(String(pet.id));
    const one = await send(page, 'getPet');
    expect(one.status).toBe(`GET /v1/pets/${pet.id} → 200 OK`);
    expect(JSON.parse(one.body)).toMatchObject({ id: pet.id, name: pet.name });
    expect(one.headers).toContain('sunset: Thu, 05 Dec 2030 00:00:00 GMT');
    expect(one.headers).not.toContain('deprecation:');
    expect(await page.locator('footer').innerText()).toBe(`Served for ${CUSTOM_DOMAIN} by project petstore-docs.`);
    expect(errors).toEqual([]);
    await context.close();
  });
});

describe('the reference of kennel serve at /__kennel/docs', () => {
  it('Add an animal from the page creates it in the mock', async () => {
    const { context, errors } = await strictContext(browser);
    const page = await context.newPage();
    expect((await page.goto(`${origin}/__kennel/docs`))!.status()).toBe(200);
    await page.getByLabel('Your API key').fill(KEY);
    await page
      .locator('#op-createPet')
      .getByLabel('Request body')
      .fill(JSON.stringify({ name: 'Pancake', categoryId: 3, status: 'available' }));
    const created = await send(page, 'createPet');
    expect(created.status).toBe('POST /v1/pets → 201 Created');
    const { id } = JSON.parse(created.body) as { id: number };
    const stored = await fetch(`${origin}/v1/pets/${id}`, { headers: { authorization: `Bearer ${KEY}` } });
    expect(await stored.json()).toEqual({ id, name: 'Pancake', categoryId: 3, status: 'available' });
    expect(errors, JSON.stringify(errors)).toEqual([]);
    await context.close();
  });
});
