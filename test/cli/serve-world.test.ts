import { createSocket } from 'node:dgram';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { once } from 'node:events';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Koa from 'koa';
import { describe, expect, it } from 'vitest';
import { packageFile } from '../../src/assets.js';
import type { ProblemError } from '../../src/core/problem.js';
import { DEFAULT_CONFIG } from '../../src/mock/config.js';
import { worldApi } from '../../src/serve/world-api.js';
import { freePort, runCli, type CliRun } from '../helpers/cli.js';

// kennel serve with the live world: start-up failures close what they opened, and a bad world
// file stops start-up with file:line instead of answering 500 later.
const dir = mkdtempSync(path.join(tmpdir(), 'kennel-world-'));
const defaultWorld = JSON.parse(readFileSync(packageFile('fixtures/world.json'), 'utf8')) as Record<string, any>;

/** Writes the default world changed by `edit`; returns the file and its text. */
function worldFile(name: string, edit: (world: Record<string, any>) => void): { file: string; text: string } {
  const world = structuredClone(defaultWorld);
  edit(world);
  const text = JSON.stringify(world, null, 2);
  const file = path.join(dir, `${name}.json`);
  writeFileSync(file, text);
  return { file, text };
}

/** The 1-based line of the first line of `text` that contains `needle`. */
function lineOf(text: string, needle: string): number {
  return text.split('\n').findIndex((line) => line.includes(needle)) + 1;
}

/** The exit code, or `started` (and then stopped) when the command served instead of failing. */
async function exitCode(cli: CliRun): Promise<number | 'started'> {
  const outcome = await Promise.race([cli.code, cli.ready.then(() => 'started' as const)]);
  if (outcome === 'started') cli.stop();
  return outcome;
}

function canBind(port: number): Promise<boolean> {
  const tcp = new Promise<boolean>((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
  const udp = new Promise<boolean>((resolve) => {
    const socket = createSocket('udp4');
    socket.once('error', () => resolve(false));
    socket.bind(port, '127.0.0.1', () => socket.close(() => resolve(true)));
  });
  return Promise.all([tcp, udp]).then(([a, b]) => a && b);
}

describe('a start-up that fails part-way closes what it had started', () => {
  it('--site-port busy: exit 2 naming the port, and the DNS server started before it is closed', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const busy = (blocker.address() as { port: number }).port;
    const dnsPort = await freePort();
    try {
      const cli = runCli(['serve', '--port', '0', '--dns-port', String(dnsPort), '--site-port', String(busy)]);
      expect(await exitCode(cli)).toBe(2);
      expect(cli.stderr()).toBe(
        `kennel: site port ${busy} on 127.0.0.1 is already in use; choose another with --site-port\n`,
      );
      expect(await canBind(dnsPort), `DNS port ${dnsPort} is free again (UDP and TCP)`).toBe(true);
    } finally {
      blocker.close();
    }
  });

  it('--port busy with --dns-port and --site-port: exit 2, and both world listeners are closed', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const busy = (blocker.address() as { port: number }).port;
    const [dnsPort, sitePort] = [await freePort(), await freePort()];
    try {
      const cli = runCli([
        'serve',
        '--port',
        String(busy),
        '--dns-port',
        String(dnsPort),
        '--site-port',
        String(sitePort),
      ]);
      expect(await exitCode(cli)).toBe(2);
      expect(cli.stderr()).toContain(`port ${busy} on 127.0.0.1 is already in use`);
      expect(await canBind(dnsPort)).toBe(true);
      expect(await canBind(sitePort)).toBe(true);
    } finally {
      blocker.close();
    }
  });
});

describe('the live world closes its own listeners when one fails to start', () => {
  it('start() rejects and the DNS server is closed, with no close() called', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const busy = (blocker.address() as { port: number }).port;
    const dnsPort = await freePort();
    try {
      const world = worldApi({ ...DEFAULT_CONFIG, port: 0, dnsPort, sitePort: busy }, () => Date.now());
      await expect(world.start()).rejects.toThrow(`site port ${busy} on 127.0.0.1 is already in use`);
      expect(world.dns()).toBeUndefined();
      expect(await canBind(dnsPort)).toBe(true);
    } finally {
      blocker.close();
    }
  });
});

describe('--world-file is checked at start-up: a bad one is exit 2 with file:line', () => {
  const cases: [string, (world: Record<string, any>) => void, string, RegExp][] = [
    [
      'zero-retry',
      (world) => (world.platform.retryIntervalMs = 0),
      '"retryIntervalMs"',
      /platform\.retryIntervalMs must be an integer from 1000 to 315360000000/,
    ],
    [
      'bad-address',
      (world) => (world.platform.addresses = ['198.51.100.300']),
      '"addresses"',
      /platform\.addresses \[0\] must be an IPv4 address/,
    ],
    ['far-start', (world) => (world.start = '+099999-01-01T00:00:00Z'), '"start"', /start must be an ISO 8601 time/],
    [
      'zero-ttl',
      (world) => (world.providers[1].defaultTtl = 0),
      '"defaultTtl": 0',
      /providers\.1\.defaultTtl must be an integer from 1 to 604800/,
    ],
    [
      'unknown-provider',
      (world) => (world.live.zones = [{ apex: 'example.com', provider: 'nope' }]),
      '"zones"',
      /live\.zones: zone example\.com: no DNS provider nope/,
    ],
    ['project-id', (world) => (world.project.id = 'Pet Store'), '"id": "Pet Store"', /project\.id must be a DNS label/],
    [
      'renew-too-early',
      (world) => (world.platform.renewBeforeMs = world.platform.certificateLifetimeMs),
      '"renewBeforeMs"',
      /platform\.renewBeforeMs must be at least a day shorter than certificateLifetimeMs/,
    ],
    [
      'endless-retries',
      (world) => (world.platform.retryWindowMs = 315_360_000_000),
      '"retryIntervalMs"',
      /platform\.retryIntervalMs must allow at most 10000 retries in retryWindowMs/,
    ],
    ['no-platform', (world) => delete world.platform, '"seed"', /platform must be an object/],
  ];

  it.each(cases)('%s', async (name, edit, needle, message) => {
    const { file, text } = worldFile(name, edit);
    const line = name === 'no-platform' ? 1 : lineOf(text, needle);
    const cli = runCli(['serve', '--port', '0', '--world-file', file]);
    expect(await exitCode(cli)).toBe(2);
    expect(cli.stderr()).toMatch(new RegExp(`^kennel: ${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:${line}: `));
    expect(cli.stderr()).toMatch(message);
    expect(cli.stderr()).not.toMatch(/\n\s+at /);
  });

  it.each([
    ['not JSON', '{"start": ', /not valid JSON/],
    ['not an object', '[]', /the world must be an object/],
  ])('%s', async (_what, text, message) => {
    const file = path.join(dir, `raw-${text.length}.json`);
    writeFileSync(file, text);
    const cli = runCli(['serve', '--port', '0', '--world-file', file]);
    expect(await exitCode(cli)).toBe(2);
    expect(cli.stderr()).toMatch(message);
  });

  it('a missing file', async () => {
    const cli = runCli(['serve', '--port', '0', '--world-file', path.join(dir, 'absent.json')]);
    expect(await exitCode(cli)).toBe(2);
    expect(cli.stderr()).toMatch(/absent\.json: cannot read the world file: ENOENT/);
  });

  it('a good world file is served', async () => {
    const { file } = worldFile('good', (world) => (world.project.id = 'other-docs'));
    const cli = runCli(['serve', '--port', '0', '--log-level', 'silent', '--world-file', file]);
    const { origin } = await cli.ready;
    const state = (await (await fetch(`${origin}/__kennel/world/state`)).json()) as { project: { id: string } };
    expect(state.project.id).toBe('other-docs');
    cli.stop();
    expect(await cli.code).toBe(0);
  });
});

describe('a world that fails to start is forgotten, not kept as a rejected promise', () => {
  it('start() fails while the world file is missing, and succeeds once it is there', async () => {
    const file = path.join(dir, 'later.json');
    const world = worldApi({ ...DEFAULT_CONFIG, port: 0, worldFile: file }, () => Date.now());
    try {
      await expect(world.start()).rejects.toThrow(/later\.json: cannot read the world file/);
      await expect(world.start()).rejects.toThrow(/later\.json: cannot read the world file/);
      writeFileSync(file, JSON.stringify(defaultWorld));
      const live = await world.start();
      expect(live.projectId).toBe(defaultWorld.project.id);
      expect(await world.start()).toBe(live);
    } finally {
      await world.close();
    }
  });

  it('its control API answers 503 world_unavailable meanwhile, then serves once the world starts', async () => {
    const file = path.join(dir, 'later-http.json');
    const world = worldApi({ ...DEFAULT_CONFIG, port: 0, worldFile: file }, () => Date.now());
    const app = new Koa();
    // The mock app renders ProblemErrors this way (src/mock/app.ts); here only the world's router is mounted.
    app.use(async (ctx, next) => {
      try {
        await next();
      } catch (error) {
        const problem = error as ProblemError;
        ctx.status = problem.status;
        ctx.body = problem.toBody();
      }
    });
    app.use(world.router);
    const server = app.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/__kennel/world/state`;
    try {
      const failed = await fetch(url);
      expect(failed.status).toBe(503);
      expect(await failed.json()).toEqual({ code: 'world_unavailable', message: expect.any(String), status: 503 });
      writeFileSync(file, JSON.stringify(defaultWorld));
      expect((await fetch(url)).status).toBe(200);
    } finally {
      server.close();
      await world.close();
    }
  });
});
