// GET /__kennel/world/scenarios with a broken file among the scenarios: the picker still lists
// the others, and the broken one says where it is broken instead of the list becoming a 500.
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Koa from 'koa';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { packageFile } from '../../src/assets.js';
import { controlResponder } from '../../src/domains/live/control-api.js';
import { LiveWorld } from '../../src/domains/live/live-world.js';
import { loadWorld } from '../../src/domains/scenario/scenario-file.js';
import { errorJson, toProblem } from '../../src/mock/respond/problems.js';
import { specRouter } from '../../src/mock/routing/spec-router.js';
import { loadDocument } from '../../src/openapi/load.js';
import { listenOnLoopback, type LoopbackServer } from '../helpers/loopback.js';

const dir = mkdtempSync(path.join(tmpdir(), 'kennel-scenario-list-'));
let server: LoopbackServer;

beforeAll(async () => {
  copyFileSync(packageFile('scenarios/add-domain-names.yaml'), path.join(dir, 'add-domain-names.yaml'));
  writeFileSync(path.join(dir, 'broken.yaml'), 'description: half-written\nsteps: [ {advance: \n');
  const live = await LiveWorld.start(await loadWorld(), { now: Date.now(), scenarioDir: dir });
  const app = new Koa();
  // The mock app's outermost rendering of failures as an Error body, as kennel serve answers.
  app.use(async (ctx, next) => {
    try {
      await next();
    } catch (error) {
      const problem = toProblem(error);
      ctx.status = problem.status;
      ctx.type = 'application/json';
      ctx.body = errorJson(problem);
    }
  });
  app.use(
    specRouter({
      document: await loadDocument(packageFile('spec/domains.yaml')),
      prefix: '',
      maxBodyBytes: 64 * 1024,
      authenticate: () => null,
      respond: controlResponder(live),
    }),
  );
  server = await listenOnLoopback(createServer((request, response) => void app.callback()(request, response)));
});
afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

it('lists the good scenarios and names the broken file and line, not a 500', async () => {
  const response = await fetch(`${server.url}/scenarios`);
  expect(response.status).toBe(200);
  const listed = (await response.json()) as { name: string; steps: unknown[]; error?: string }[];
  expect(listed.map((scenario) => scenario.name).sort()).toEqual(['add-domain-names', 'broken']);
  expect(listed.find((scenario) => scenario.name === 'add-domain-names')?.steps.length).toBeGreaterThan(0);
  const broken = listed.find((scenario) => scenario.name === 'broken');
  expect(broken).toMatchObject({ description: '', steps: [] });
  expect(broken?.error).toMatch(/broken\.yaml:2:\d+: invalid YAML/);
});

it('loading the broken one is a 400 naming the file and line', async () => {
  const response = await fetch(`${server.url}/scenario`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'broken' }),
  });
  expect(response.status).toBe(400);
  expect(((await response.json()) as { message: string }).message).toMatch(/broken\.yaml:2:\d+: invalid YAML/);
});
