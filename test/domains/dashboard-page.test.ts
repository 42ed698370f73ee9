import { request } from 'node:http';
import { readFileSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packageFile } from '../../src/assets.js';
import { DASHBOARD_CSP } from '../../src/domains/live/dashboard-page.js';
import { startMock, type RunningMock } from '../../src/serve/server.js';
import { callWorld } from '../helpers/world-client.js';

// The page's files as served, and what the control API adds for it (scenario list, revision, stepping).
let mock: RunningMock;
beforeAll(async () => {
  mock = await startMock({});
});
afterAll(() => mock.close());

/** A raw GET, so the path reaches the server exactly as written (fetch would normalise `..`). */
function rawGet(path: string, headers: Record<string, string> = {}) {
  return new Promise<{ status: number; headers: Record<string, unknown>; body: string }>((resolve, reject) => {
    const url = new URL(mock.origin);
    const call = request({ host: url.hostname, port: url.port, path, headers }, (response) => {
      let body = '';
      response.setEncoding('utf8').on('data', (chunk) => (body += chunk));
      response.on('end', () => resolve({ status: response.statusCode!, headers: response.headers, body }));
    });
    call.on('error', reject).end();
  });
}

describe('the dashboard page', () => {
  it.each([
    ['/__kennel/dashboard', 'text/html; charset=utf-8', '<script type="module" src="/__kennel/dashboard/app.js">'],
    ['/__kennel/dashboard/', 'text/html; charset=utf-8', '<title>kennel · Domains</title>'],
    ['/__kennel/dashboard/app.js', 'text/javascript; charset=utf-8', "from './api.js'"],
    ['/__kennel/dashboard/api.js', 'text/javascript; charset=utf-8', "const API = '/__kennel/world';"],
    ['/__kennel/dashboard/dom.js', 'text/javascript; charset=utf-8', 'export function h('],
    ['/__kennel/dashboard/domains.js', 'text/javascript; charset=utf-8', 'export function renderDomains('],
    ['/__kennel/dashboard/bench.js', 'text/javascript; charset=utf-8', 'export function renderZones('],
    ['/__kennel/dashboard/app.css', 'text/css; charset=utf-8', ':root'],
  ])('%s answers %s with a strict CSP and revalidation', async (path, type, excerpt) => {
    const response = await rawGet(path);
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe(type);
    expect(response.body).toContain(excerpt);
    expect(response.headers['content-security-policy']).toBe(DASHBOARD_CSP);
    expect(DASHBOARD_CSP).toContain("script-src 'self'");
    expect(DASHBOARD_CSP).not.toContain('unsafe');
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['cache-control']).toBe('no-cache');
    const again = await rawGet(path, { 'if-none-match': String(response.headers.etag) });
    expect(again.status).toBe(304);
    expect(again.body).toBe('');
  });

  it('has no inline script or style, and loads nothing from another origin', async () => {
    const html = (await rawGet('/__kennel/dashboard')).body;
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    expect(html).not.toMatch(/\sstyle=|<style|\son[a-z]+=/i);
    expect(html).not.toMatch(/(src|href)="(https?:)?\/\//);
    for (const module of ['app', 'api', 'dom', 'domains', 'bench']) {
      const js = (await rawGet(`/__kennel/dashboard/${module}.js`)).body;
      expect(js, `${module}.js: data reaches the DOM as text only`).not.toMatch(
        /innerHTML|outerHTML|insertAdjacentHTML|document\.write|eval\(|new Function/,
      );
    }
  });

  it.each([
    ['/__kennel/dashboard/../../package.json', 404],
    ['/__kennel/dashboard/%2e%2e/package.json', 404],
    ['/__kennel/dashboard/index.html', 404],
    ['/__kennel/dashboard/app.js/x', 404],
  ])('%s answers %i with an Error body, never a file outside the page', async (path, status) => {
    const response = await rawGet(path);
    expect(response.status).toBe(status);
    expect(JSON.parse(response.body)).toMatchObject({ status, code: 'not_found' });
  });

  it('refuses other methods with 405 and Allow', async () => {
    const response = await fetch(`${mock.origin}/__kennel/dashboard`, { method: 'POST', body: '{}' });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('GET, HEAD');
    expect(await response.json()).toMatchObject({ code: 'method_not_allowed', status: 405 });
  });

  it('ships in the npm package and the Docker image', async () => {
    const pkg = JSON.parse(readFileSync(packageFile('package.json'), 'utf8'));
    expect(pkg.files).toContain('web');
    const dockerfile = readFileSync(packageFile('Dockerfile'), 'utf8');
    expect(dockerfile).toContain('COPY web ./web');
    expect(dockerfile).toContain('COPY --from=build /app/web ./web');
    expect((await readdir(packageFile('web/dashboard'))).sort()).toEqual([
      'api.js',
      'app.css',
      'app.js',
      'bench.js',
      'dom.js',
      'domains.js',
      'index.html',
    ]);
  });
});

describe('what the control API offers the dashboard', () => {
  it('lists every bundled scenario with its steps', async () => {
    const listed = await callWorld(mock.origin, 'GET', '/scenarios');
    expect(listed.status).toBe(200);
    const files = (await readdir(packageFile('scenarios'))).filter((file) => file.endsWith('.yaml'));
    expect(listed.body.map((scenario: { name: string }) => scenario.name)).toEqual(
      files.map((file) => file.replace(/\.yaml$/, '')).sort(),
    );
    const caa = listed.body.find((scenario: { name: string }) => scenario.name === 'caa-blocks-issuance');
    expect(caa.steps).toHaveLength(15);
    expect(caa.steps[5]).toEqual({ index: 5, name: 'timed out', action: 'check docs.example.com' });
  });

  it('moves the revision on writes and DNS questions, not on reads', async () => {
    const revision = async () => (await callWorld(mock.origin, 'GET', '/revision')).body.revision as number;
    const start = await revision();
    await callWorld(mock.origin, 'GET', '/state');
    await callWorld(mock.origin, 'GET', '/history');
    expect(await revision()).toBe(start);
    await callWorld(mock.origin, 'POST', '/domains', { name: 'rev.example.com' });
    const afterWrite = await revision();
    expect(afterWrite).toBeGreaterThan(start);
    await callWorld(mock.origin, 'GET', '/dns/query?name=rev.example.com&type=A');
    expect(await revision()).toBeGreaterThan(afterWrite);
    const refused = await callWorld(mock.origin, 'POST', '/domains', { name: 'rev.example.com' });
    expect(refused.status).toBe(409);
    expect(await revision(), 'a refused write may still have changed nothing; it counts anyway').toBeGreaterThan(
      afterWrite,
    );
  });

  it.each(['/history', '/dns/queries'])(
    '%s?limit=N answers the newest N, oldest first; a bad limit is a 400',
    async (path) => {
      await callWorld(mock.origin, 'POST', '/domains', { name: 'limit.example.com' });
      await callWorld(mock.origin, 'POST', '/domains/limit.example.com/verify');
      const all = (await callWorld(mock.origin, 'GET', path)).body;
      expect(all.length).toBeGreaterThan(2);
      expect((await callWorld(mock.origin, 'GET', `${path}?limit=2`)).body).toEqual(all.slice(-2));
      for (const bad of ['0', '-1', 'abc', '10001'])
        expect((await callWorld(mock.origin, 'GET', `${path}?limit=${bad}`)).status, bad).toBe(400);
    },
  );

  it('plays the first N steps of a scenario, so stepping is loading with one more', async () => {
    for (const steps of [0, 1, 2]) {
      const loaded = await callWorld(mock.origin, 'POST', '/scenario', { name: 'conflicting-a-record', steps });
      expect(loaded.status).toBe(200);
      expect(loaded.body.played).toHaveLength(steps);
      expect(loaded.body.total).toBe(13);
      const domains = await callWorld(mock.origin, 'GET', '/domains');
      expect(domains.body).toHaveLength(steps === 0 ? 0 : 1);
    }
    const upTo = await callWorld(mock.origin, 'POST', '/scenario', {
      name: 'conflicting-a-record',
      upTo: 'provider refuses the CNAME',
      steps: 1,
    });
    expect(upTo.body.played, 'whichever comes first').toHaveLength(1);
    const negative = await callWorld(mock.origin, 'POST', '/scenario', { name: 'conflicting-a-record', steps: -1 });
    expect(negative.status).toBe(400);
  });
});
